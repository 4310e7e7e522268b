// SPDX-License-Identifier: LGPL-2.1-or-later
import HLSPackaging
import Testing

struct FragmentWriterTests {
    @Test func aFragmentListsEverySampleAndPointsAtItsBytes() throws {
        var writer = FragmentWriter()
        let samples = [
            FragmentSample(decodeTime: 900_000, duration: 3000, size: 5, compositionOffset: 6000, isSync: true),
            FragmentSample(decodeTime: 903_000, duration: 3000, size: 3, compositionOffset: -3000, isSync: false),
        ]
        let payload: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let bytes = payload.withUnsafeBytes { writer.fragment(samples, payload: $0) }
        let boxes = BoxTree.parse(ArraySlice(bytes))
        #expect(boxes.map(\.type) == ["moof", "mdat"])
        #expect(Array(boxes[1].body) == payload)
        let mfhd = try #require(boxes.find("moof/mfhd")).body
        #expect(mfhd.u32(mfhd.startIndex + 4) == 1)
        let tfhd = try #require(boxes.find("moof/traf/tfhd")).body
        #expect(tfhd.u32(tfhd.startIndex) == 0x0002_0000 && tfhd.u32(tfhd.startIndex + 4) == 1, "default-base-is-moof, track 1")
        let tfdt = try #require(boxes.find("moof/traf/tfdt")).body
        #expect(tfdt.first == 1 && tfdt.u64(tfdt.startIndex + 4) == 900_000)
        let trun = try #require(boxes.find("moof/traf/trun")).body
        let start = trun.startIndex
        #expect(trun.u32(start) == 0x0100_0F01 && trun.u32(start + 4) == 2, "version 1, every field; two samples")
        let dataOffset = Int(trun.u32(start + 8))
        #expect(dataOffset == boxes[0].size + 8 && Array(bytes[dataOffset..<(dataOffset + 8)]) == payload)
        let fields = (0..<8).map { trun.u32(start + 12 + 4 * $0) }
        #expect(fields == [3000, 5, 0x0200_0000, 6000, 3000, 3, 0x0101_0000, UInt32(bitPattern: -3000)])
    }

    @Test func fragmentsCountUpAndReuseTheirBuffer() {
        var writer = FragmentWriter(trackID: 2)
        let sample = [FragmentSample(decodeTime: 0, duration: 1024, size: 4, isSync: true)]
        let payload: [UInt8] = [0, 0, 0, 0]
        var sequence: [UInt32] = []
        for _ in 0..<3 {
            let bytes = payload.withUnsafeBytes { writer.fragment(sample, payload: $0) }
            let mfhd = BoxTree.parse(ArraySlice(bytes)).find("moof/mfhd")!.body
            sequence.append(mfhd.u32(mfhd.startIndex + 4))
        }
        #expect(sequence == [1, 2, 3] && writer.sequenceNumber == 4)
    }
}
