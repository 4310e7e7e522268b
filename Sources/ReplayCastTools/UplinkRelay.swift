// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import MediaKernels
import Synchronization

/// What the kernel's link cannot do on this machine (its kernel has no netem): added delay,
/// and a server that stops reading. The relay listens on `port` of 127.0.0.1, TCP and UDP
/// both, and passes each connection or UDP peer to `serverHost:serverPort` on a socket of
/// its own. What the broadcast sends is held for the delay; during a stall nothing more is
/// read from it, so a TCP sender meets a full window and UDP datagrams are dropped by the
/// kernel once the socket's buffer is full. Told a rate, down or up, the relay shapes
/// itself as well (`RelayLink`), where no kernel link is in front of it. The server's
/// answers pass at once, as they pass the kernel's link unshaped. One thread does it all,
/// with poll.
public final class UplinkRelay: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let port: Int
    public let serverPort: Int
    private let control = Mutex(Control())
    private let finished = Atomic<Bool>(false)

    private struct Control {
        var delay: UInt64 = 0
        var stalled = false
        var rate: UInt64?
        var down = false
        var stopping = false
        var summary = Summary()
    }

    public struct Summary: Sendable, CustomStringConvertible {
        public var connections = 0
        public var peers = 0
        /// Bytes passed on to the server.
        public var passed: UInt64 = 0
        /// Datagrams the relay's own link lost: over its queue at the rate, or sent while down.
        public var dropped = 0

        public var description: String {
            String(format: "%d TCP connection%@ and %d UDP peer%@, %.1f MB passed to the server", connections,
                   connections == 1 ? "" : "s", peers, peers == 1 ? "" : "s", Double(passed) / 1e6)
                + (dropped > 0 ? ", \(dropped) datagrams dropped" : "")
        }
    }

    /// What the relay holds of one broadcast at most before it stops reading from it: a
    /// large TCP window's worth.
    static let heldLimit = 4 << 20

    public let serverHost: String

    /// `port` 0: one the kernel picks, free for TCP and UDP both.
    public init(port: Int, serverHost: String = "127.0.0.1", serverPort: Int) throws(Failure) {
        guard IPv4Socket.address(serverHost, UInt16(serverPort)) != nil else {
            throw Failure(description: "'\(serverHost)' is not an IPv4 address")
        }
        self.serverHost = serverHost
        self.serverPort = serverPort
        let listener: Int32
        let datagrams: Int32
        do { (listener, datagrams) = try Self.bound(port) } catch { throw Failure(description: error.description) }
        self.port = Int(IPv4Socket.port(of: listener))
        Thread.detachNewThread { [self] in
            let summary = run(listener: listener, datagrams: datagrams)
            control.withLock { $0.summary = summary }
            close(listener)
            close(datagrams)
            finished.store(true, ordering: .releasing)
        }
    }

    public func apply(_ change: UplinkSchedule.Change) {
        control.withLock { control in
            switch change {
            case .delay(let nanoseconds): control.delay = nanoseconds
            case .stall: control.stalled = true
            case .resume: control.stalled = false
            case .rate(let bits): control.rate = bits
            case .down: control.down = true
            case .up: control.down = false
            }
        }
    }

    /// Ends the relay and its connections; what it passed.
    public func stop() -> Summary {
        control.withLock { $0.stopping = true }
        while !finished.load(ordering: .acquiring) { usleep(1000) }
        return control.withLock { $0.summary }
    }

    /// Until `stop`; what it passed.
    private func run(listener: Int32, datagrams: Int32) -> Summary {
        var flows: [RelayFlow] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var summary = Summary()
        var link = RelayLink()
        while true {
            let (delay, stalled, stopping) = control.withLock { control in
                (link.rate, link.down) = (control.rate, control.down)
                return (control.delay, control.stalled, control.stopping)
            }
            if stopping { break }
            let heldLimit = link.queueBytes(unshaped: Self.heldLimit)
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: datagrams, events: stalled ? 0 : Int16(POLLIN), revents: 0)]
            for flow in flows {
                if let client = flow.client {
                    let reading = !stalled && !flow.clientEnded && flow.heldBytes < heldLimit
                    fds.append(pollfd(fd: client, events: reading ? Int16(POLLIN) : 0, revents: 0))
                }
                fds.append(pollfd(fd: flow.server, events: Int16(POLLIN) | (flow.serverBlocked ? Int16(POLLOUT) : 0), revents: 0))
            }
            let before = Self.now()
            // At most 20 ms, so that schedule changes and the stop are seen in time; what waits
            // for the relay's own rate is tried again every 2 ms.
            let wait = flows.compactMap(\.nextDue).min().map { due in
                due > before ? Int32(min(20, Timebase.milliseconds(due - before))) : link.isShaping ? 2 : 0
            } ?? 20
            poll(&fds, nfds_t(fds.count), wait)
            let now = Self.now()
            link.refill(now: now)
            let polled = flows
            if fds[0].revents & Int16(POLLIN) != 0, let flow = accepted(listener) {
                flows.append(flow)
                summary.connections += 1
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                switch received(datagrams, into: &flows, buffer: &buffer, due: now + delay, room: link.queueBytes(unshaped: .max)) {
                case .newPeer: summary.peers += 1
                case .dropped: summary.dropped += 1
                case .held, .none: break
                }
            }
            var index = 2
            var ended: Set<ObjectIdentifier> = []
            for flow in polled {
                var alive = true
                if let client = flow.client {
                    if fds[index].revents != 0 { alive = readClient(client, flow, buffer: &buffer, due: now + delay) }
                    index += 1
                }
                if fds[index].revents != 0 { alive = alive && readServer(flow, datagrams: datagrams, buffer: &buffer) }
                index += 1
                if !alive || !flow.sendDue(now: now, link: &link) { ended.insert(ObjectIdentifier(flow)) }
            }
            for flow in flows where ended.contains(ObjectIdentifier(flow)) {
                summary.passed += flow.passed
                summary.dropped += flow.dropped
                flow.close()
            }
            flows.removeAll { ended.contains(ObjectIdentifier($0)) }
        }
        for flow in flows {
            summary.passed += flow.passed
            summary.dropped += flow.dropped
            flow.close()
        }
        return summary
    }

    private func accepted(_ listener: Int32) -> RelayFlow? {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return nil }
        guard let server = try? IPv4Socket.connected(.tcp, host: serverHost, port: UInt16(serverPort)) else {
            // The broadcast sees its connection closed, as when nothing listens.
            close(client)
            return nil
        }
        return RelayFlow(client: client, peer: nil, server: server)
    }

    private enum Arrival { case held, newPeer, dropped }

    /// Holds a datagram from a broadcast, unless its peer's held datagrams fill `room`.
    private func received(_ datagrams: Int32, into flows: inout [RelayFlow], buffer: inout [UInt8], due: UInt64,
                          room: Int) -> Arrival? {
        var peer = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = buffer.withUnsafeMutableBytes { raw in
            withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(datagrams, raw.baseAddress, raw.count, 0, $0, &length) }
            }
        }
        guard count >= 0 else { return nil }
        let same = { (other: sockaddr_in?) in other?.sin_port == peer.sin_port && other?.sin_addr.s_addr == peer.sin_addr.s_addr }
        if let known = flows.first(where: { same($0.peer) }) {
            guard known.heldBytes + count <= room else { return .dropped }
            known.hold(Array(buffer[..<count]), due: due)
            return .held
        }
        guard let server = try? IPv4Socket.connected(.udp, host: serverHost, port: UInt16(serverPort)) else { return nil }
        let flow = RelayFlow(client: nil, peer: peer, server: server)
        flow.hold(Array(buffer[..<count]), due: due)
        flows.append(flow)
        return .newPeer
    }

    /// TCP and UDP sockets on one port; port 0: one the kernel picks, tried until UDP has it
    /// free too.
    private static func bound(_ port: Int) throws(IPv4Socket.Failure) -> (Int32, Int32) {
        var attempt = 0
        while true {
            let listener = try IPv4Socket.bound(.tcp, host: "127.0.0.1", port: UInt16(port))
            do {
                return (listener, try IPv4Socket.bound(.udp, host: "127.0.0.1", port: IPv4Socket.port(of: listener)))
            } catch {
                close(listener)
                attempt += 1
                if port != 0 || attempt == 20 { throw error }
            }
        }
    }

    /// False when the broadcast's connection failed.
    private func readClient(_ client: Int32, _ flow: RelayFlow, buffer: inout [UInt8], due: UInt64) -> Bool {
        let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count > 0 { flow.hold(Array(buffer[..<count]), due: due) }
        if count == 0 { flow.clientEnded = true }
        return count >= 0 || errno == EAGAIN
    }

    /// Passes the server's answer back at once; false when the server closed or failed (TCP).
    private func readServer(_ flow: RelayFlow, datagrams: Int32, buffer: inout [UInt8]) -> Bool {
        let count = buffer.withUnsafeMutableBytes { recv(flow.server, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        guard let client = flow.client else {
            // UDP: a server not listening (yet) answers with ICMP, seen here as a failed read.
            guard count > 0, var peer = flow.peer else { return true }
            _ = buffer.withUnsafeBytes { raw in
                withUnsafePointer(to: &peer) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(datagrams, raw.baseAddress, count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
            return true
        }
        guard count > 0 else { return count < 0 && errno == EAGAIN }
        var offset = 0
        while offset < count {
            let sent = buffer.withUnsafeBytes { send(client, $0.baseAddress! + offset, count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
