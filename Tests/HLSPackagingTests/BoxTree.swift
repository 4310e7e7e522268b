// SPDX-License-Identifier: LGPL-2.1-or-later

/// Reads ISO BMFF boxes back for the tests: each box's type, its offset and its body, and
/// for the container boxes named here, its children.
struct BoxTree {
    static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "dinf", "stbl", "mvex", "moof", "traf"]

    let type: String
    let offset: Int
    let size: Int
    let body: ArraySlice<UInt8>
    let children: [BoxTree]

    static func parse(_ bytes: ArraySlice<UInt8>) -> [BoxTree] {
        var boxes: [BoxTree] = []
        var at = bytes.startIndex
        while at + 8 <= bytes.endIndex {
            let size = Int(bytes.u32(at))
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            guard size >= 8, at + size <= bytes.endIndex else { break }
            let body = bytes[(at + 8)..<(at + size)]
            boxes.append(BoxTree(type: type, offset: at, size: size, body: body,
                                 children: containers.contains(type) ? parse(body) : []))
            at += size
        }
        return boxes
    }

    /// The first box down a path of types: `"moov/trak/mdia"`.
    func find(_ path: String) -> BoxTree? {
        var node: BoxTree? = self
        for type in path.split(separator: "/") { node = node?.children.first { $0.type == type } }
        return node
    }
}

extension [BoxTree] {
    func find(_ path: String) -> BoxTree? {
        let head = path.split(separator: "/", maxSplits: 1)
        guard let top = first(where: { $0.type == head[0] }) else { return nil }
        return head.count == 1 ? top : top.find(String(head[1]))
    }
}

extension ArraySlice<UInt8> {
    func u32(_ at: Int) -> UInt32 {
        UInt32(self[at]) << 24 | UInt32(self[at + 1]) << 16 | UInt32(self[at + 2]) << 8 | UInt32(self[at + 3])
    }

    func u16(_ at: Int) -> UInt16 { UInt16(self[at]) << 8 | UInt16(self[at + 1]) }

    func u64(_ at: Int) -> UInt64 { UInt64(u32(at)) << 32 | UInt64(u32(at + 4)) }
}
