// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

/// Plain IPv4 sockets: the preview server's listener and the uplink relay's.
package enum IPv4Socket {
    package enum Kind { case tcp, udp }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package static func address(_ host: String, _ port: UInt16) -> sockaddr_in? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        return inet_pton(AF_INET, host, &address.sin_addr) == 1 ? address : nil
    }

    /// `host` as an IPv4 address: itself when it is one, else its first IPv4 address.
    package static func resolved(_ host: String) -> String? {
        if address(host, 0) != nil { return host }
        var hints = addrinfo()
        hints.ai_family = AF_INET
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &found) == 0, let first = found else { return nil }
        defer { freeaddrinfo(found) }
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        return first.pointee.ai_addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
            var ip = address.pointee.sin_addr
            return inet_ntop(AF_INET, &ip, &text, socklen_t(text.count)).map { String(cString: $0) }
        }
    }

    /// A socket bound to `host:port` (port 0: one the kernel picks); TCP ones listen.
    package static func bound(_ kind: Kind, host: String, port: UInt16) throws(Failure) -> Int32 {
        guard var address = address(host, port) else { throw Failure(description: "'\(host)' is not an IPv4 address") }
        let fd = socket(AF_INET, Int32(kind == .tcp ? SOCK_STREAM.rawValue : SOCK_DGRAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, kind == .udp || listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            throw Failure(description: "cannot \(kind == .tcp ? "listen" : "bind") on \(host):\(port) (\(kind)): \(reason)")
        }
        return fd
    }

    /// A socket connected to `host:port`; for UDP that fixes where its datagrams go.
    package static func connected(_ kind: Kind, host: String, port: UInt16) throws(Failure) -> Int32 {
        guard var address = address(host, port) else { throw Failure(description: "'\(host)' is not an IPv4 address") }
        let fd = socket(AF_INET, Int32(kind == .tcp ? SOCK_STREAM.rawValue : SOCK_DGRAM.rawValue), 0)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, connected == 0 else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            throw Failure(description: "cannot connect to \(host):\(port) (\(kind)): \(reason)")
        }
        return fd
    }

    /// The port a socket is bound to.
    package static func port(of fd: Int32) -> UInt16 {
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: actual.sin_port)
    }
}
