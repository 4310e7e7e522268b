// SPDX-License-Identifier: LGPL-2.1-or-later
@testable import HLSPackaging
import Testing

struct BoxWriterTests {
    @Test func boxesKnowTheirSizeAndFullBoxesTheirVersionAndFlags() {
        var writer = BoxWriter()
        writer.box("moov") { moov in
            moov.fullBox("mvhd", version: 1, flags: 0x02_0001) { $0.u64(0x0102_0304_0506_0708) }
            moov.box("free") { $0.zeros(3) }
        }
        let bytes = ArraySlice(writer.bytes)
        #expect(bytes.count == 8 + (12 + 8) + (8 + 3))
        let boxes = BoxTree.parse(bytes)
        #expect(boxes.map(\.type) == ["moov"] && boxes[0].size == 39)
        let mvhd = boxes.find("moov/mvhd")!
        #expect(mvhd.size == 20 && Array(mvhd.body.prefix(4)) == [1, 0x02, 0x00, 0x01])
        #expect(mvhd.body.u64(mvhd.body.startIndex + 4) == 0x0102_0304_0506_0708)
        #expect(boxes.find("moov/free")?.size == 11)
    }

    @Test func removeAllKeepsTheBufferForTheNextBox() {
        var writer = BoxWriter(capacity: 64)
        writer.box("mdat") { $0.zeros(40) }
        let capacity = writer.bytes.capacity
        writer.removeAll()
        writer.box("mdat") { $0.zeros(40) }
        #expect(writer.count == 48 && writer.bytes.capacity == capacity)
    }

    @Test func descriptorLengthsTakeAsManySevenBitGroupsAsTheyNeed() {
        #expect(ElementaryStreamDescriptor.descriptor(tag: 5, [9, 9]) == [5, 2, 9, 9])
        let long = ElementaryStreamDescriptor.descriptor(tag: 4, Array(repeating: 7, count: 200))
        #expect(Array(long.prefix(3)) == [4, 0x81, 0x48] && long.count == 203)
        let longer = ElementaryStreamDescriptor.descriptor(tag: 3, Array(repeating: 7, count: 20_000))
        #expect(Array(longer.prefix(4)) == [3, 0x81, 0x9C, 0x20] && longer.count == 20_004)
    }
}
