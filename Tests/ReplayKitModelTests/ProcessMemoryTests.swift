// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
@testable import ReplayKitModel
import Testing

struct ProcessMemoryTests {
    @Test func statmResidentLessSharedPages() {
        let text = Array("1037393 30721 13999 2 0 45000 0\n".utf8)
        let bytes = text.withUnsafeBufferPointer { ProcessMemory.footprint(statm: $0, pageSize: 4096) }
        #expect(bytes == (30721 - 13999) * 4096)
    }

    @Test func truncatedStatmReadsAsNothing() {
        let text = Array("1037393 30721".utf8)
        #expect(text.withUnsafeBufferPointer { ProcessMemory.footprint(statm: $0, pageSize: 4096) } == nil)
    }

    @Test func memoryThisProcessWritesCounts() throws {
        let before = try #require(ProcessMemory.footprint())
        let size = 64 << 20
        let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
        defer { block.deallocate() }
        // Untouched pages are not resident; written ones are the process's own.
        for offset in stride(from: 0, to: size, by: 4096) { block.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }
        let after = try #require(ProcessMemory.footprint())
        // Other tests run beside this one and may free memory meanwhile: most of the 64 MB shows.
        #expect(after > before + UInt64(size) / 2, "\(before) -> \(after) bytes")
    }
}
