// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import MediaKernels
import Testing

/// InheritedPropertyParityTests for what only a live pipeline shows: where the output starts
/// (start-time-selection), the latency it reports, inactive pads, a stalled input's last
/// buffer. Live runs differ by a frame or two at their ends, so counts compare within 2;
/// start times compare exactly.
@Suite(.serialized) struct InheritedPropertyParityLiveTests {
    static let pip = PeerParity.Pair.pipcompositor
    static let mixer = PeerParity.Pair.dualmixer

    static func main(_ frames: Int, pattern: String = "ball") -> String {
        "videotestsrc is-live=true num-buffers=\(frames) pattern=\(pattern) ! \(videoCaps(.nv12, 64, 48))"
    }

    static func pip(_ frames: Int) -> String {
        "videotestsrc is-live=true num-buffers=\(frames) pattern=white ! \(videoCaps(.nv12, 16, 12))"
    }

    static func tone(_ frequency: Int, buffers: Int = 40) -> String {
        "audiotestsrc is-live=true num-buffers=\(buffers) samplesperbuffer=480 freq=\(frequency) volume=0.3 "
            + "! audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved"
    }

    static func close(_ a: Int, _ b: Int) -> Bool { abs(a - b) <= 2 }

    static let selections: [(String, UInt64?)] = [
        ("start-time-selection=zero", 0), ("start-time-selection=first", nil),
        ("start-time-selection=set start-time=200000000", 200_000_000),
    ]

    // MARK: - pipcompositor

    /// zero: the first frame at 0; first: at the first buffer's running time, the same for
    /// both; set: at start-time. start-with-main (ours, off by default) is not involved. One
    /// input: with two, `first` is whichever buffer reaches each element first, which the
    /// two queue threads decide.
    @Test(arguments: selections)
    func pipcompositorStartTimeSelection(selection: String, start: UInt64?) throws {
        let outcome = try PeerParity.run(Self.pip, inputs: [Self.main(20)], both: selection)
        #expect(outcome.run.error == nil && outcome.run.reachedEOS, "\(outcome.run.error?.description ?? "no EOS")")
        #expect(outcome.ours.pts.first == outcome.peer.pts.first && Self.close(outcome.ours.buffers.count, outcome.peer.buffers.count),
                "\(selection): \(outcome.text)")
        if let start { #expect(outcome.ours.pts.first == start, "\(selection): \(outcome.text)") }
        print("\(selection): \(outcome.text)")
    }

    /// latency and min-upstream-latency: both elements answer the same LATENCY query.
    @Test(arguments: ["latency=50000000", "min-upstream-latency=150000000", "latency=30000000 min-upstream-latency=150000000"])
    func pipcompositorLatency(properties: String) throws {
        let outcome = try PeerParity.run(Self.pip, inputs: [Self.main(20), Self.pip(20)], both: properties, latencyAfter: 0.3)
        let ours = outcome.ours.latency, peer = outcome.peer.latency
        #expect(ours != nil && ours?.live == true && ours?.min == peer?.min && ours?.live == peer?.live,
                "\(properties): ours \(String(describing: ours)), compositor \(String(describing: peer))")
        print("\(properties): minimum latency \(ours?.min ?? 0) ns, compositor \(peer?.min ?? 0) ns")
    }

    /// A requested pad that is never linked: with ignore-inactive-pads=true or false both go
    /// on at live pace (false: each frame waits for its deadline). compositor waits for that
    /// pad's end, so ours does too without end-with-main; the run is stopped after 1 s.
    @Test(arguments: [true, false])
    func pipcompositorIgnoreInactivePads(ignore: Bool) throws {
        let outcome = try PeerParity.run(Self.pip, inputs: [Self.main(300)], both: "ignore-inactive-pads=\(ignore)",
                                         ours: "end-with-main=false", unlinked: 1, timeout: 1)
        #expect(outcome.run.error == nil && !outcome.run.reachedEOS)
        #expect(outcome.ours.buffers.count >= 20 && Self.close(outcome.ours.buffers.count, outcome.peer.buffers.count)
                && outcome.ours.pts.first == outcome.peer.pts.first, "ignore-inactive-pads=\(ignore): \(outcome.text)")
        print("ignore-inactive-pads=\(ignore), one pad never linked, 1 s: \(outcome.text)")
    }

    /// max-last-buffer-repeat on a PiP whose source stalls 0.3 s in (a valve drops its
    /// buffers, its end still passes at 1.5 s): its last picture is dropped 100 ms after that
    /// buffer's end; without it, the picture stays until the PiP's end. compositor ends when
    /// every input has: ours too, without end-with-main.
    @Test func pipcompositorMaxLastBufferRepeat() throws {
        func run(_ properties: String) throws -> (ours: Int, peer: Int, text: String) {
            let stalling = Self.pip(45) + " ! valve name=stall drop-mode=forward-sticky-events"
            let outcome = try PeerParity.run(Self.pip, inputs: [Self.main(30, pattern: "black"), stalling], both: properties,
                                             ours: "end-with-main=false", frames: true, whilePlaying: { pipeline in
                Thread.sleep(forTimeInterval: 0.3)
                let valve = gst_bin_get_by_name(rc_bin(pipeline), "stall")!
                gst_util_set_object_arg(rc_gobject(valve), "drop", "true")
                gst_object_unref(valve)
            })
            #expect(outcome.run.error == nil && outcome.run.reachedEOS, "\(properties): \(outcome.run.error?.description ?? "no EOS")")
            let white = RGBColor.white.yuv(in: .bt709Limited).y
            let shown = { (frames: [GrabbedFrame]) in frames.filter { $0.sample(0, 8, 6) == white }.count }
            return (shown(outcome.ours.frames), shown(outcome.peer.frames), outcome.text)
        }
        let limited = try run("sink_1::max-last-buffer-repeat=100000000")
        let unlimited = try run("")
        #expect(Self.close(limited.ours, limited.peer) && Self.close(unlimited.ours, unlimited.peer),
                "frames with the PiP: limited \(limited.ours) vs \(limited.peer), unlimited \(unlimited.ours) vs \(unlimited.peer)")
        // Without the limit, the PiP stays in all 45 frames but a frame or two at each end.
        #expect(limited.ours <= 16 && unlimited.ours >= 41, "the PiP in \(limited.ours) of 45 frames with the limit, \(unlimited.ours) without")
        print("max-last-buffer-repeat 100 ms, PiP stalled at 0.3 s: PiP in \(limited.ours) of 45 frames (compositor \(limited.peer)); "
              + "without it \(unlimited.ours) (compositor \(unlimited.peer))")
    }

    // MARK: - dualmixer

    /// As pipcompositorStartTimeSelection, on the app input (the mic unlinked: ended).
    @Test(arguments: selections)
    func dualmixerStartTimeSelection(selection: String, start: UInt64?) throws {
        let outcome = try PeerParity.run(Self.mixer, inputs: [Self.tone(440)], both: selection,
                                         output: "audio/x-raw,format=S16LE,rate=48000,channels=2")
        #expect(outcome.run.error == nil && outcome.run.reachedEOS, "\(outcome.run.error?.description ?? "no EOS")")
        #expect(outcome.ours.pts.first == outcome.peer.pts.first && Self.close(outcome.ours.buffers.count, outcome.peer.buffers.count),
                "\(selection): \(outcome.text)")
        if let start { #expect(outcome.ours.pts.first == start, "\(selection): \(outcome.text)") }
        print("\(selection): \(outcome.text)")
    }

    @Test(arguments: ["latency=50000000", "min-upstream-latency=150000000"])
    func dualmixerLatency(properties: String) throws {
        let outcome = try PeerParity.run(Self.mixer, inputs: [Self.tone(440), Self.tone(660)], both: properties,
                                         output: "audio/x-raw,format=S16LE,rate=48000,channels=2", latencyAfter: 0.2)
        let ours = outcome.ours.latency, peer = outcome.peer.latency
        #expect(ours != nil && ours?.live == true && ours?.min == peer?.min,
                "\(properties): ours \(String(describing: ours)), audiomixer \(String(describing: peer))")
        print("\(properties): minimum latency \(ours?.min ?? 0) ns, audiomixer \(peer?.min ?? 0) ns")
    }
}
