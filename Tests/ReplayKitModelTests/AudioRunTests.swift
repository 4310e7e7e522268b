// SPDX-License-Identifier: LGPL-2.1-or-later
import ReplayKitModel
import Testing

@Suite struct AudioRunTests {
    @Test func iOS12BurstsArriveWhenComplete() {
        let run = AudioRun(rate: 44100, cadence: DeviceProfile.iPhoneXiOS12.app.cadence, startTime: 0)
        let first = run.buffer(0), second = run.buffer(1)
        #expect(first == .init(firstFrame: 0, frames: 22596, presentationTime: 0, duration: 512_380_952))
        #expect(first.deliveryTime == 512_380_952)
        #expect(second.firstFrame == 22596 && second.presentationTime == first.deliveryTime)
        // Frame-exact: after 1000 bursts the clock has not drifted.
        #expect(run.buffer(1000).presentationTime == UInt64(22_596_000) * 1_000_000_000 / 44100)
    }

    @Test func splitMicBuffersStayContiguous() {
        let run = AudioRun(rate: 48000, cadence: DeviceProfile.iPhone11iOS17.mic.cadence, startTime: 0)
        var end: UInt64 = 0, frame: Int64 = 0
        for index in 0 ..< 120 {
            let buffer = run.buffer(index)
            #expect(buffer.presentationTime == end && buffer.firstFrame == frame)
            end = buffer.deliveryTime
            frame += Int64(buffer.frames)
        }
        #expect(run.buffer(49).frames == 955 && run.buffer(50).frames == 69)
        #expect(run.buffer(50).firstFrame == 49 * 1024 + 955)
    }

    @Test func runsAfterAPauseContinueOnTheBroadcastClock() {
        // Resumed at 8 s + 1 ns: the programme has moved on by 8 s, rounded up to a whole frame.
        let run = AudioRun(rate: 24000, cadence: BufferCadence(framesPerBuffer: 1024), startTime: 8_000_000_001)
        #expect(run.startFrame == 192_001)
        #expect(run.buffer(0).presentationTime == 8_000_041_666)
        #expect(AudioRun(rate: 24000, cadence: BufferCadence(framesPerBuffer: 1024), startTime: 8_000_000_000).startFrame == 192_000)
    }
}
