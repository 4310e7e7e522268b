// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import ReplayCastKit
import ReplayCastSupport
import Synchronization

/// Many emulated broadcasters at once, each a `Broadcast` of one pipeline file with its own
/// device, schedule, start and URL from a `SwarmPlan`:
///
///     let swarm = Swarm(plan: SwarmPlan(count: 20, seed: 1, duration: .seconds(30), arrival: .together),
///                       pipelineFile: "pipelines/swarm-member.pipeline", url: "rtmp://127.0.0.1/live/dev{n}")
///     let events = Task { for await event in swarm.events { … } }
///     let report = try await swarm.run()
///
/// Each broadcaster gets the variables URL (`url` with `{n}` its number), DEVICE, SCHEDULE
/// and NAME (`dev{n}`), on top of `variables`. One whose plan gives it an uplink publishes
/// through an `UplinkRelay` of its own on 127.0.0.1 (URL is then the relay's), which
/// follows the uplink's schedule from the broadcaster's start and passes to the ingest.
/// Each ends cleanly at the plan's duration, or earlier by its schedule's finish, an error,
/// or `stop()`. Runs once, on no particular actor.
public final class Swarm: Sendable {
    /// This swarm's broadcasters: the plan's, or a shard's of it.
    public let members: [SwarmPlan.Member]
    /// Every broadcaster's events; finishes when `run()` returns. One consumer. Unread
    /// events are kept, so read them, or leave them to a broadcast's few (no meters).
    public let events: AsyncStream<SwarmEvent>
    private let continuation: AsyncStream<SwarmEvent>.Continuation
    private let plan: SwarmPlan
    private let shard: String
    private let pipelineFile: String
    private let url: String
    private let variables: [String: String]
    private let state: Mutex<State>
    /// The Ctrl-C handler, kept as long as the swarm.
    nonisolated(unsafe) private let interrupts = Locked([any DispatchSourceSignal]())

    private struct State {
        var started = false
        var stopping = false
        var interruptible = false
        var records: [SwarmRecord]
        var running: [Int: Broadcast] = [:]
        /// The sleeps until a broadcaster's start, which `stop()` cuts short.
        var waits: [Int: Task<Void, any Error>] = [:]
    }

    /// `shard`/`shards`: run broadcasters shard, shard + shards, … of the plan only
    /// (`SwarmPlan.shard`); the report says which.
    public init(plan: SwarmPlan, shard: Int = 1, of shards: Int = 1, pipelineFile: String, url: String,
                variables: [String: String] = [:]) {
        self.plan = plan
        self.shard = "\(shard)/\(shards)"
        self.pipelineFile = pipelineFile
        self.url = url
        self.variables = variables
        members = plan.shard(shard, of: shards)
        let records = members.map { member in
            SwarmRecord(number: member.number, url: url.replacingOccurrences(of: "{n}", with: String(member.number)),
                        device: member.device, start: member.start.seconds, schedule: member.schedule,
                        uplink: member.uplink?.name)
        }
        state = Mutex(State(records: records))
        (events, continuation) = AsyncStream.makeStream()
    }

    /// Runs every broadcaster, each from its start, and returns once all have ended.
    /// - Throws: `alreadyStarted` when called again.
    public func run() async throws(BroadcastError) -> SwarmReport {
        guard state.withLock({ s in defer { s.started = true }; return !s.started }) else { throw .alreadyStarted }
        let started = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            for (index, member) in members.enumerated() {
                group.addTask { await self.runMember(index, member, from: started) }
            }
        }
        continuation.finish()
        return report
    }

    /// Ends the swarm early: every running broadcaster stops cleanly (end-of-stream), and
    /// those yet to start never do.
    public func stop() async {
        for broadcast in startNoMore() { _ = try? await broadcast.stop() }
    }

    /// Cuts short the waits of those yet to start, which then never do; the running ones.
    @discardableResult
    private func startNoMore() -> [Broadcast] {
        state.withLock { s in
            s.stopping = true
            s.waits.values.forEach { $0.cancel() }
            return Array(s.running.values)
        }
    }

    /// For command-line tools: Ctrl-C ends the swarm as `Broadcast.stopOnInterrupt()` ends
    /// one broadcast (a first cleanly, another a second later at once), and no broadcaster
    /// starts after it.
    public func stopOnInterrupt() {
        Broadcast.ignoreInterrupts()
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        // Each running broadcast stops on the interrupt by its own handler.
        source.setEventHandler { [weak self] in self?.startNoMore() }
        source.resume()
        interrupts.withLock { $0.append(source) }
        let running = state.withLock { s in
            s.interruptible = true
            return Array(s.running.values)
        }
        running.forEach { $0.stopOnInterrupt() }
    }

    /// The broadcasters running now, by number: their outputs and traffic for a status
    /// screen, or one to stop.
    public var broadcasts: [Int: Broadcast] { state.withLock { $0.running } }

    /// What each broadcaster has done so far; final once `run()` returned.
    public var report: SwarmReport {
        SwarmReport(seed: plan.seed, count: plan.members.count, shard: shard, broadcasters: state.withLock { $0.records })
    }

    /// Applies the uplink's changes to the relay at their times from now.
    private static func follow(_ uplink: SwarmPlan.Uplink?, relay: UplinkRelay?) -> Task<Void, any Error>? {
        guard let uplink, let relay else { return nil }
        let start = ContinuousClock.now
        // What holds from the start holds before the first byte.
        let now = uplink.schedule.steps.prefix { $0.time == .zero }
        now.forEach { relay.apply($0.change) }
        return Task {
            for step in uplink.schedule.steps.dropFirst(now.count) {
                try await Task.sleep(until: start + step.time)
                relay.apply(step.change)
            }
        }
    }

    private func runMember(_ index: Int, _ member: SwarmPlan.Member, from started: ContinuousClock.Instant) async {
        let number = member.number
        func ended(_ change: (inout SwarmRecord) -> Void) {
            let record = state.withLock { s in
                change(&s.records[index])
                s.running[number] = nil
                return s.records[index]
            }
            continuation.yield(SwarmEvent(number: number, at: ContinuousClock.now - started, change: .ended(record)))
        }
        let wait = Task { try await Task.sleep(until: started + member.start) }
        guard state.withLock({ s in
            s.waits[number] = wait
            return !s.stopping
        }) else { return ended { _ in } }
        _ = await wait.result
        state.withLock { _ = $0.waits.removeValue(forKey: number) }
        var url = state.withLock { $0.records[index].url }
        var relayed: RelayedURL?
        if member.uplink != nil {
            do { relayed = try RelayedURL(url) } catch { return ended { $0.errors.append("uplink: \(error)") } }
            url = relayed!.url
        }
        let shaping = Self.follow(member.uplink, relay: relayed?.relay)
        let outcome = await publish(index, member, url: url, from: started)
        shaping?.cancel()
        let passed = relayed.map { Int($0.relay.stop().passed) }
        ended { record in
            outcome(&record)
            record.uplinkBytes = passed
        }
    }

    /// The broadcaster's broadcast, from its making to its end; what its record gets then.
    private func publish(_ index: Int, _ member: SwarmPlan.Member, url: String,
                         from started: ContinuousClock.Instant) async -> (inout SwarmRecord) -> Void {
        let number = member.number
        let variables = variables.merging(["URL": url, "DEVICE": member.device, "SCHEDULE": member.schedule,
                                           "NAME": "dev\(number)"]) { $1 }
        let broadcast: Broadcast
        do { broadcast = try Broadcast(pipelineFile: pipelineFile, variables: variables) } catch {
            return { $0.errors.append("\(error)") }
        }
        guard let interruptible = state.withLock({ s -> Bool? in
            guard !s.stopping else { return nil }
            s.running[number] = broadcast
            return s.interruptible
        }) else { return { _ in } }
        if interruptible { broadcast.stopOnInterrupt() }
        let stopper = Task {
            try await Task.sleep(until: started + plan.duration)
            try await broadcast.stop()
        }
        do {
            try await broadcast.start()
            continuation.yield(SwarmEvent(number: number, at: ContinuousClock.now - started, change: .started))
            // stop() may have found it in `running` before it played, when stopping it did nothing.
            if state.withLock({ $0.stopping }) { _ = try? await broadcast.stop() }
        } catch {
            // The error itself comes as the broadcast's last events.
        }
        for await event in broadcast.events {
            let at = ContinuousClock.now - started
            state.withLock { $0.records[index].note(event, at: at.seconds) }
            continuation.yield(SwarmEvent(number: number, at: at, change: .broadcast(event)))
        }
        stopper.cancel()
        let ending = await broadcast.waitUntilEnded()
        let traffic = broadcast.traffic
        return { $0.end(ending, traffic: traffic) }
    }
}
