// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

/// The memory iOS holds against an app extension's limit is its physical footprint
/// (`task_vm_info.phys_footprint`): the pages the process dirtied itself, not the code and
/// files it maps, which the system can drop and read again. The nearest Linux figure is
/// the resident memory not backed by a file or shared: `/proc/self/statm`'s resident pages
/// less its shared ones.
public enum ProcessMemory {
    /// This process's private resident memory in bytes; nil where /proc cannot be read.
    /// Allocates nothing: a watcher reads it many times a second.
    public static func footprint() -> UInt64? {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer -> UInt64? in
            let count = read(fd, buffer.baseAddress, buffer.count)
            guard count > 0 else { return nil }
            return footprint(statm: UnsafeBufferPointer(rebasing: buffer[..<count]), pageSize: UInt64(sysconf(Int32(_SC_PAGESIZE))))
        }
    }

    /// From statm's text: "size resident shared text lib data dt", in pages.
    static func footprint(statm: UnsafeBufferPointer<UInt8>, pageSize: UInt64) -> UInt64? {
        var fields: (resident: UInt64, shared: UInt64) = (0, 0)
        var index = 0
        var value: UInt64 = 0
        var inNumber = false
        for byte in statm {
            if byte >= 0x30 && byte <= 0x39 {
                value = value &* 10 &+ UInt64(byte - 0x30)
                inNumber = true
                continue
            }
            guard inNumber else { continue }
            if index == 1 { fields.resident = value }
            if index == 2 { fields.shared = value; break }
            index += 1
            value = 0
            inNumber = false
        }
        guard index == 2 else { return nil }
        return fields.resident > fields.shared ? (fields.resident - fields.shared) * pageSize : 0
    }
}
