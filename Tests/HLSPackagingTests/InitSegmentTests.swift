// SPDX-License-Identifier: LGPL-2.1-or-later
import HLSPackaging
import Testing

struct InitSegmentTests {
    /// An AVCDecoderConfigurationRecord as h264parse gives it: version 1, constrained
    /// baseline (66, compatibility 0xC0), level 3.0, 4-byte lengths, one SPS and one PPS.
    static let avcRecord: [UInt8] = [1, 0x42, 0xC0, 0x1E, 0xFF, 0xE1, 0, 4, 0x67, 0x42, 0xC0, 0x1E, 1, 0, 2, 0x68, 0xCE]
    /// AAC LC, 48 kHz, stereo.
    static let aacConfig: [UInt8] = [0x11, 0x90]

    @Test func aVideoHeaderHasItsTrackItsSampleEntryAndItsFragmentDefaults() throws {
        let boxes = BoxTree.parse(ArraySlice(InitSegment.bytes(for: .h264(configuration: Self.avcRecord, width: 720, height: 1558))))
        #expect(boxes.map(\.type) == ["ftyp", "moov"])
        let ftyp = boxes[0].body
        #expect(String(decoding: ftyp, as: UTF8.self) == "iso6\0\0\0\0iso6cmfc")
        let mdhd = try #require(boxes.find("moov/trak/mdia/mdhd")).body
        #expect(mdhd.u32(mdhd.startIndex + 12) == 90_000, "timescale")
        let hdlr = try #require(boxes.find("moov/trak/mdia/hdlr")).body
        #expect(String(decoding: hdlr[(hdlr.startIndex + 8)..<(hdlr.startIndex + 12)], as: UTF8.self) == "vide")
        let tkhd = try #require(boxes.find("moov/trak/tkhd")).body
        #expect(tkhd.u32(tkhd.endIndex - 8) == 720 << 16 && tkhd.u32(tkhd.endIndex - 4) == 1558 << 16)
        let stsd = try #require(boxes.find("moov/trak/mdia/minf/stbl/stsd")).body
        #expect(stsd.u32(stsd.startIndex + 4) == 1, "one sample entry")
        let entry = BoxTree.parse(stsd.dropFirst(8))
        #expect(entry.map(\.type) == ["avc1"])
        let visual = entry[0].body
        #expect(visual.u16(visual.startIndex + 24) == 720 && visual.u16(visual.startIndex + 26) == 1558)
        let avcC = BoxTree.parse(visual.dropFirst(78))
        #expect(avcC.map(\.type) == ["avcC"] && Array(avcC[0].body) == Self.avcRecord)
        for empty in ["stts", "stsc", "stco"] {
            let table = try #require(boxes.find("moov/trak/mdia/minf/stbl/\(empty)"))
            #expect(table.size == 16 && table.body.u32(table.body.startIndex + 4) == 0, "\(empty) lists no sample")
        }
        let trex = try #require(boxes.find("moov/mvex/trex")).body
        #expect(trex.u32(trex.startIndex + 4) == 1 && trex.u32(trex.startIndex + 8) == 1, "track 1, sample entry 1")
    }

    @Test func anAudioHeaderCarriesTheAudioSpecificConfigInItsDescriptor() throws {
        let boxes = BoxTree.parse(ArraySlice(InitSegment.bytes(for: .aac(configuration: Self.aacConfig, sampleRate: 48_000, channels: 2))))
        let mdhd = try #require(boxes.find("moov/trak/mdia/mdhd")).body
        #expect(mdhd.u32(mdhd.startIndex + 12) == 48_000)
        #expect(boxes.find("moov/trak/mdia/minf/smhd") != nil && boxes.find("moov/trak/mdia/minf/vmhd") == nil)
        let stsd = try #require(boxes.find("moov/trak/mdia/minf/stbl/stsd")).body
        let mp4a = try #require(BoxTree.parse(stsd.dropFirst(8)).first)
        #expect(mp4a.type == "mp4a")
        #expect(mp4a.body.u16(mp4a.body.startIndex + 16) == 2, "channels")
        #expect(mp4a.body.u32(mp4a.body.startIndex + 24) == 48_000 << 16, "rate, 16.16")
        let esds = try #require(BoxTree.parse(mp4a.body.dropFirst(28)).first)
        #expect(esds.type == "esds")
        let descriptor = Array(esds.body.dropFirst(4))
        // ES (3) holding decoder configuration (4: MPEG-4 audio 0x40, audio stream 0x15) holding
        // decoder-specific info (5: the config), then SL configuration (6: 2).
        #expect(descriptor == [3, 25, 0, 0, 0, 4, 17, 0x40, 0x15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 2, 0x11, 0x90, 6, 1, 2])
    }

    @Test(arguments: [
        (TrackFormat.h264(configuration: InitSegmentTests.avcRecord, width: 2, height: 2), "avc1.42C01E"),
        (TrackFormat.aac(configuration: InitSegmentTests.aacConfig, sampleRate: 48_000, channels: 2), "mp4a.40.2"),
        (TrackFormat.aac(configuration: [0x2B, 0x92, 0x08, 0x00], sampleRate: 48_000, channels: 2), "mp4a.40.5"),
        // Main profile, tier L, level 93 (3.1), progressive and frame-only constraints.
        (TrackFormat.h265(configuration: [1, 0x01, 0x60, 0, 0, 0, 0x90, 0, 0, 0, 0, 0, 93], width: 2, height: 2), "hvc1.1.6.L93.90"),
    ])
    func codecsAttributesNameProfileAndLevel(format: TrackFormat, expected: String) {
        #expect(format.codecsAttribute == expected)
    }
}
