// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc
import ReplayCastSupport

/// The TCP socket rtmp2sink publishes on, found among this process's descriptors by its
/// peer (the server's address and port), for one figure rtmp2sink does not give: how many
/// bytes wait in the kernel's send buffer (SIOCOUTQ: not yet acknowledged by the server).
/// Linux grows that buffer to megabytes on a fast link: after the link slows, seconds of
/// media can wait there while rtmp2sink still writes freely. Only read, never written.
final class ServerSocket {
    /// Descriptors some connection has found, so two connections to one server each find
    /// their own.
    private static let claimed = Locked<Set<Int32>>([])

    private let fd: Int32
    private let inode: String

    /// The newest unclaimed TCP socket whose peer is one of `addresses` (`addresses(of:)`:
    /// rtmp2sink's, made for the attempt that just connected), or nil.
    init?(peerIn addresses: Set<String>) {
        let found = Self.claimed.withLock { claimed -> (Int32, String)? in
            for (fd, inode) in Self.sockets().reversed() where !claimed.contains(fd) {
                guard let peer = Self.peer(fd), addresses.contains(peer) else { continue }
                claimed.insert(fd)
                return (fd, inode)
            }
            return nil
        }
        guard let found else { return nil }
        (fd, inode) = found
    }

    /// Bytes the kernel still holds for the server; nil once the socket is gone.
    func unsentBytes() -> Int? {
        guard Self.link(fd) == inode else { return nil }
        var count: Int32 = 0
        guard ioctl(fd, UInt(TIOCOUTQ), &count) == 0 else { return nil }
        return Int(count)
    }

    deinit { _ = Self.claimed.withLock { $0.remove(fd) } }

    /// The server's "address port" texts for a location, as `init` compares them with
    /// peers; nil when the location names no server that resolves.
    static func addresses(of location: String) -> Set<String>? {
        guard PublishTransport(location: location) == .rtmp, let server = PublishTransport.server(location) else { return nil }
        return resolve(server.host, server.port)
    }

    /// "address port" texts of the host's IPv4 and IPv6 addresses.
    private static func resolve(_ host: String, _ port: Int) -> Set<String>? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0 else { return nil }
        defer { freeaddrinfo(list) }
        var addresses: Set<String> = []
        var entry = list
        while let current = entry {
            if let text = describe(current.pointee.ai_addr) { addresses.insert(text) }
            entry = current.pointee.ai_next
        }
        return addresses
    }

    private static func peer(_ fd: Int32) -> String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                getpeername(fd, address, &length) == 0 ? describe(address) : nil
            }
        }
    }

    private static func describe(_ address: UnsafePointer<sockaddr>) -> String? {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let length = socklen_t(address.pointee.sa_family == sa_family_t(AF_INET6) ? MemoryLayout<sockaddr_in6>.size
                                                                                 : MemoryLayout<sockaddr_in>.size)
        guard address.pointee.sa_family == sa_family_t(AF_INET) || address.pointee.sa_family == sa_family_t(AF_INET6),
              getnameinfo(address, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                          NI_NUMERICHOST | NI_NUMERICSERV) == 0 else { return nil }
        return "\(text(host)) \(text(service))"
    }

    /// This process's socket descriptors with their "socket:[inode]" links, in descriptor order.
    private static func sockets() -> [(Int32, String)] {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        defer { closedir(directory) }
        var found: [(Int32, String)] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
            guard let fd = Int32(name), let target = link(fd), target.hasPrefix("socket:") else { continue }
            found.append((fd, target))
        }
        return found.sorted { $0.0 < $1.0 }
    }

    private static func link(_ fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        return count > 0 ? text(buffer[..<count]) : nil
    }

    private static func text(_ characters: some Collection<CChar>) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
