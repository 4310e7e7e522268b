// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import Glibc
import ReplayCastKit
import ReplayCastTools
import Testing

/// The uplink relay's own link (a swarm broadcaster's uplink): its rate over TCP and UDP,
/// the drop-tail queue over UDP, and down, measured at a real server socket behind it.
@Suite(.serialized) struct UplinkRelayLiveTests {
    /// A server socket on 127.0.0.1 that counts what arrives, with the time it arrived.
    final class Counter: @unchecked Sendable {
        let fd: Int32
        let port: Int
        private let lock = NSLock()
        private var arrivals: [(at: Double, bytes: Int)] = []
        private let start = Date()
        private var stopped = false

        init(_ kind: IPv4Socket.Kind) throws {
            fd = try IPv4Socket.bound(kind, host: "127.0.0.1", port: 0)
            port = Int(IPv4Socket.port(of: fd))
            Thread.detachNewThread { [self] in
                var reader = fd
                if kind == .tcp { reader = accept(fd, nil, nil) }
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                var poller = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
                while !lock.withLock({ stopped }) {
                    guard poll(&poller, 1, 20) > 0 else { continue }
                    let count = buffer.withUnsafeMutableBytes { recv(reader, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                    if count == 0 { break }
                    if count > 0 { lock.withLock { arrivals.append((Date().timeIntervalSince(start), count)) } }
                }
                if reader != fd { close(reader) }
            }
        }

        /// Bytes and datagrams (reads) that arrived from `from` to `to` seconds.
        func arrived(from: Double, to: Double) -> (bytes: Int, reads: Int) {
            let within = lock.withLock { arrivals.filter { $0.at >= from && $0.at < to } }
            return (within.map(\.bytes).reduce(0, +), within.count)
        }

        func stop() {
            lock.withLock { stopped = true }
            usleep(50_000)
            close(fd)
        }
    }

    /// Sends `bytes` at a time every `interval` seconds for `seconds` to 127.0.0.1:`port`.
    static func offer(_ kind: IPv4Socket.Kind, to port: Int, bytes: Int, every interval: Double, for seconds: Double) throws {
        let fd = try IPv4Socket.connected(kind, host: "127.0.0.1", port: UInt16(port))
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0x47, count: bytes)
        let start = Date()
        var due = 0.0
        while due < seconds {
            let now = Date().timeIntervalSince(start)
            if now < due { usleep(UInt32((due - now) * 1e6)) }
            // TCP may take part of it; what it refuses now is what a full window refuses.
            _ = chunk.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            due += interval
        }
    }

    /// 800 kbit/s over TCP from a sender offering 4 Mb/s: 100 kB a second arrive.
    @Test func tcpPassesAtTheRate() throws {
        let server = try Counter(.tcp)
        defer { server.stop() }
        let relay = try UplinkRelay(port: 0, serverPort: server.port)
        relay.apply(.rate(bitsPerSecond: 800_000))
        try Self.offer(.tcp, to: relay.port, bytes: 5000, every: 0.01, for: 3)
        let middle = server.arrived(from: 1, to: 3)
        _ = relay.stop()
        print("relay at 800 kbit/s, TCP: \(middle.bytes / 2) bytes a second from 1 to 3 s")
        #expect(abs(Double(middle.bytes) / 2 - 100_000) <= 5_000, "\(middle.bytes) bytes from 1 to 3 s: \(middle.bytes / 2) a second")
    }

    /// 400 kbit/s over UDP from a sender of 1000-byte datagrams at 1.6 Mb/s: 50 datagrams a
    /// second arrive, whole; the rest is dropped once a queue's worth (64 kB) waits.
    @Test func udpPassesAtTheRateAndDropsTheRest() throws {
        let server = try Counter(.udp)
        defer { server.stop() }
        let relay = try UplinkRelay(port: 0, serverPort: server.port)
        relay.apply(.rate(bitsPerSecond: 400_000))
        try Self.offer(.udp, to: relay.port, bytes: 1000, every: 0.005, for: 3)
        let middle = server.arrived(from: 1, to: 3)
        let summary = relay.stop()
        print("relay at 400 kbit/s, UDP: \(middle.reads) datagrams from 1 to 3 s, \(summary.dropped) of 600 dropped")
        #expect(middle.bytes == middle.reads * 1000, "every datagram whole: \(middle.bytes) bytes in \(middle.reads)")
        #expect(abs(Double(middle.reads) / 2 - 50) <= 3, "\(middle.reads) datagrams from 1 to 3 s")
        // 600 sent; about 150 passed and 64 waited when it stopped.
        #expect((380...420).contains(summary.dropped), "\(summary.dropped) dropped of 600: \(summary)")
    }

    /// Down from 1 to 2 s: no datagram arrives, and those sent meanwhile are lost; up again,
    /// they arrive at once.
    @Test func downLosesEverythingUntilUp() throws {
        let server = try Counter(.udp)
        defer { server.stop() }
        let relay = try UplinkRelay(port: 0, serverPort: server.port)
        let schedule = Thread { [relay] in
            usleep(1_000_000)
            relay.apply(.down)
            usleep(1_000_000)
            relay.apply(.up)
        }
        schedule.start()
        try Self.offer(.udp, to: relay.port, bytes: 500, every: 0.01, for: 3)
        let summary = relay.stop()
        let (before, during, after) = (server.arrived(from: 0.1, to: 0.95), server.arrived(from: 1.05, to: 1.95),
                                       server.arrived(from: 2.05, to: 2.9))
        print("relay down from 1 to 2 s: \(before.reads), \(during.reads), \(after.reads) datagrams before, during, after; "
              + "\(summary.dropped) dropped")
        #expect(during.reads == 0, "\(during.reads) datagrams arrived while down")
        #expect(before.reads >= 80 && after.reads >= 80, "\(before.reads) before, \(after.reads) after")
        #expect((95...105).contains(summary.dropped), "\(summary.dropped) dropped in 1 s of 100 a second")
    }
}
