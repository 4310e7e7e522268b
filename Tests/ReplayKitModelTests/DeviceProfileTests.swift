// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
import ReplayKitModel
import Testing

@Suite struct DeviceProfileTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var name: String
        var screen: (Int, Int)
        var app: (rate: Int, channels: Int, format: SampleFormat, frames: Int)
        var mic: (rate: Int, channels: Int)
        var testDescription: String { name }
    }

    static let expected: [Expected] = [
        .init(name: "iphone-x-ios12", screen: (1125, 2436), app: (44100, 1, .s16be, 22596), mic: (44100, 1)),
        .init(name: "iphone-11-ios17", screen: (1242, 2688), app: (44100, 2, .s16be, 1024), mic: (48000, 1)),
        .init(name: "ipad-ios17", screen: (2048, 2732), app: (44100, 2, .s16be, 1024), mic: (48000, 1)),
        .init(name: "rtc-32k-mic", screen: (1242, 2688), app: (44100, 2, .s16be, 1024), mic: (32000, 1)),
        .init(name: "airpods-mic", screen: (1242, 2688), app: (44100, 2, .s16be, 1024), mic: (24000, 1)),
        .init(name: "multicam-mic", screen: (1242, 2688), app: (44100, 2, .s16be, 1024), mic: (48000, 3)),
    ]

    @Test(arguments: expected)
    func numbers(expected: Expected) throws {
        let profile = try #require(DeviceProfile(named: expected.name))
        #expect(profile.name == expected.name)
        #expect(profile.screenWidth == expected.screen.0 && profile.screenHeight == expected.screen.1)
        #expect(profile.maxFramesPerSecond == 30)
        #expect(profile.app.rate == expected.app.rate)
        #expect(profile.app.channels == expected.app.channels)
        #expect(profile.app.format == expected.app.format)
        #expect(profile.app.cadence == BufferCadence(framesPerBuffer: expected.app.frames))
        #expect(profile.mic.rate == expected.mic.rate)
        #expect(profile.mic.channels == expected.mic.channels)
        #expect(profile.mic.format == .s16le)
        #expect(profile.mic.cadence == BufferCadence(framesPerBuffer: 1024, split: .init(every: 50, first: 955)))
    }

    @Test func everyNumberCitesASource() {
        #expect(DeviceProfile.all.count == Self.expected.count)
        for profile in DeviceProfile.all {
            for fact in DeviceProfile.Fact.allCases {
                #expect(!profile.source(of: fact).isEmpty, "\(profile.name) has no source for \(fact)")
            }
        }
        #expect(DeviceProfile.iPhoneXiOS12.source(of: .appCadence).contains("22,596"))
        #expect(DeviceProfile.airPodsMic.source(of: .micRate).contains("AirPods"))
    }

    @Test func namesListEveryProfileOnceInOrder() {
        #expect(DeviceProfile.names == Self.expected.map(\.name))
        #expect(Set(DeviceProfile.names).count == DeviceProfile.all.count)
        #expect(DeviceProfile(named: "iphone-xs-ios12") == nil)
        #expect(DeviceProfile(named: "IPHONE-X-IOS12") == nil)
    }

    @Test func summaryReadsAsDocumented() {
        #expect(DeviceProfile.iPhoneXiOS12.summary
            == "iPhone X, iOS 12: 1125x2436 ≤30 fps; app 44100 Hz mono S16BE, 22596-frame buffers; "
            + "mic 44100 Hz mono S16LE, 1024-frame buffers (1 in 50 split 955+69)")
    }
}

@Suite struct BufferCadenceTests {
    @Test func unsplitBuffersAreAllTheSameSize() {
        let cadence = BufferCadence(framesPerBuffer: 22596)
        #expect((0 ..< 5).map(cadence.frames(ofBuffer:)) == [22596, 22596, 22596, 22596, 22596])
        #expect(cadence.startFrame(ofBuffer: 3) == 67788)
    }

    @Test func everyNthCallbackArrivesInTwoParts() {
        let cadence = BufferCadence(framesPerBuffer: 1024, split: .init(every: 3, first: 955))
        #expect((0 ..< 9).map(cadence.frames(ofBuffer:)) == [1024, 1024, 955, 69, 1024, 1024, 955, 69, 1024])
        #expect((0 ... 9).map(cadence.startFrame(ofBuffer:)) == [0, 1024, 2048, 3003, 3072, 4096, 5120, 6075, 6144, 7168])
    }

    @Test func splittingEveryCallback() {
        let cadence = BufferCadence(framesPerBuffer: 1024, split: .init(every: 1, first: 955))
        #expect((0 ..< 4).map(cadence.frames(ofBuffer:)) == [955, 69, 955, 69])
        #expect(cadence.startFrame(ofBuffer: 5) == 2048 + 955)
    }

    @Test func startFramesAddUpTheSizes() {
        let cadence = DeviceProfile.iPhone11iOS17.mic.cadence
        var total: Int64 = 0
        for index in 0 ..< 200 {
            #expect(cadence.startFrame(ofBuffer: index) == total)
            total += Int64(cadence.frames(ofBuffer: index))
        }
        // 200 buffers = 3 full groups of 51 buffers (150 callbacks) + 47 whole callbacks.
        #expect(total == 197 * 1024)
    }
}
