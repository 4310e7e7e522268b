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

    /// The pipeline tests run beside this one in the same process and allocate and free tens
    /// of megabytes meanwhile (up to 45 MB between two readings seen): the block is large
    /// enough that half of it stands out of that, both ways.
    @Test func memoryThisProcessWritesCounts() throws {
        let before = try #require(ProcessMemory.footprint())
        let size = 256 << 20
        let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
        // Untouched pages are not resident; written ones are the process's own.
        for offset in stride(from: 0, to: size, by: 4096) { block.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }
        let written = try #require(ProcessMemory.footprint())
        block.deallocate()
        let freed = try #require(ProcessMemory.footprint())
        #expect(written > before + UInt64(size) / 2, "\(before) -> \(written) bytes")
        #expect(freed < written - UInt64(size) / 2, "\(written) -> \(freed) bytes once freed")
    }
}
