// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import ReplayCastKit
import ReplayCastTools
import Testing

/// ReplayCastKit's `Swarm`: broadcasters of pipelines/swarm-member.pipeline publishing to a
/// real nginx-rtmp, their typed events, the report, an early stop.
@Suite(.serialized) struct SwarmKitLiveTests {
    static let memberFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("pipelines/swarm-member.pipeline").path

    init() { GStreamerSetup.ensure() }

    /// Three broadcasters over 1 s of ramp, 4 s: each one's events start with `.started`
    /// after its planned start, hold its connection, and end with the record the report has;
    /// each recording holds the frames its record counts.
    @Test func eachBroadcasterReportsInOrderAndItsRecordMatchesItsRecording() async throws {
        let server = try RtmpServer()
        defer { server.stop() }
        let plan = SwarmPlan(count: 3, seed: 5, duration: .seconds(4), arrival: .ramp(.seconds(1)))
        let swarm = Swarm(plan: plan, pipelineFile: Self.memberFile, url: server.url("dev{n}"))
        let collected = Task { await swarm.events.reduce(into: [SwarmEvent]()) { $0.append($1) } }
        let report = try await swarm.run()
        let events = await collected.value
        server.stop()
        #expect(report.seed == 5 && report.count == 3 && report.shard == "1/1" && report.failed == 0)
        #expect(report.broadcasters.map(\.number) == [1, 2, 3])
        await #expect(throws: BroadcastError.alreadyStarted) { _ = try await swarm.run() }
        for member in plan.members {
            let own = events.filter { $0.number == member.number }
            guard case .started? = own.first?.change, case .ended(let record)? = own.last?.change else {
                Issue.record("dev\(member.number): events \(own.map(\.change))")
                continue
            }
            #expect(own.first!.at >= member.start, "dev\(member.number) started at \(own.first!.at), planned \(member.start)")
            #expect(zip(own, own.dropFirst()).allSatisfy { $0.at <= $1.at })
            let connected = own.filter { if case .broadcast(.rtmp(let rtmp)) = $0.change, case .connected = rtmp.change { true } else { false } }
            #expect(connected.count == 1 && record.connections == 1 && record.ending == "end-of-stream")
            #expect(record == report.broadcasters.first { $0.number == member.number })
            #expect(record.url == server.url("dev\(member.number)") && record.device == member.device)
            let (_, packets) = try runCommand("/usr/bin/ffprobe", [
                "-v", "error", "-select_streams", "v", "-count_packets", "-show_entries", "stream=nb_read_packets",
                "-of", "csv=p=0", server.recording("dev\(member.number)").path])
            let recorded = Int(packets.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
            // 15 fps from its start to 4 s; the recording is what the encoder made.
            let expected = (4 - member.start.seconds) * 15
            #expect(recorded == record.frames && abs(Double(record.frames) - expected) <= 15,
                    "dev\(member.number): \(recorded) frames recorded, \(record.frames) reported, about \(expected) due")
        }
    }

    /// Stopped at 1.5 s, a 10 s swarm whose second broadcaster starts at 4 s: the first ends
    /// cleanly, the second never starts and has not failed; run() returns at once.
    @Test func stopEndsTheRunningAndStartsNoMore() async throws {
        let server = try RtmpServer()
        defer { server.stop() }
        let plan = SwarmPlan(count: 2, seed: 5, duration: .seconds(10), arrival: .ramp(.seconds(8)))
        let swarm = Swarm(plan: plan, pipelineFile: Self.memberFile, url: server.url("dev{n}"))
        let running = Task { try await swarm.run() }
        try await Task.sleep(for: .milliseconds(1500))
        #expect(Array(swarm.broadcasts.keys) == [1])
        let stopped = ContinuousClock.now
        await swarm.stop()
        let report = try await running.value
        let took = ContinuousClock.now - stopped
        #expect(took < .seconds(3), "run() returned \(took) after stop()")
        #expect(report.broadcasters.map(\.ending) == ["end-of-stream", "not-started"])
        #expect(report.broadcasters.map(\.connections) == [1, 0] && report.failed == 0, "\(report.lines)")
        #expect(swarm.broadcasts.isEmpty)
    }

    /// Two broadcasters, each through its own uplink: 10 Mb/s passes everything (the
    /// recording holds the encoders' bytes), 150 kbit/s, under the stream's 364, passes that
    /// much a second and no more.
    @Test func eachBroadcasterPublishesThroughItsOwnUplink() async throws {
        let server = try RtmpServer()
        defer { server.stop() }
        let uplinks = [SwarmPlan.Uplink(name: "fast", schedule: try UplinkSchedule(parsing: "0s:rate=10mbit")),
                       SwarmPlan.Uplink(name: "slow", schedule: try UplinkSchedule(parsing: "0s:rate=150kbit"))]
        // The first seed whose two broadcasters draw different uplinks.
        let plan = try #require((1...50).lazy.map {
            SwarmPlan(count: 2, seed: $0, duration: .seconds(5), arrival: .together, uplinks: uplinks)
        }.first { Set($0.members.compactMap(\.uplink?.name)).count == 2 })
        #expect(plan.members.map(\.device) == SwarmPlan(count: 2, seed: plan.seed, duration: .seconds(5), arrival: .together)
            .members.map(\.device), "uplinks leave the devices drawn as they were")
        let report = try await Swarm(plan: plan, pipelineFile: Self.memberFile, url: server.url("dev{n}")).run()
        server.stop()
        #expect(report.failed == 0, "\(report.lines)")
        for record in report.broadcasters {
            let (_, sizes) = try runCommand("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "packet=size", "-of", "csv=p=0",
                                                                 server.recording("dev\(record.number)").path])
            let recorded = sizes.split(separator: "\n").compactMap { Int($0) }.reduce(0, +)
            let through = record.uplinkBytes ?? 0
            print("dev\(record.number) through \(record.uplink ?? "-"): \(record.bytes) bytes encoded, \(through) passed, "
                  + "\(recorded) recorded")
            if record.uplink == "fast" {
                // FLV keeps the codecs' setup apart from the packets: a few bytes of the encoders'.
                #expect(abs(recorded - record.bytes) <= record.bytes / 200 && through > record.bytes, "fast: everything arrives")
            } else {
                // 18,750 bytes a second for about 5 s (the connection opens within the first 0.5 s).
                #expect((80_000...95_000).contains(through) && recorded < through, "slow: \(through) bytes passed")
            }
        }
    }
}
