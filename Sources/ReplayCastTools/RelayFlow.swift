// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

/// One broadcast's way through the uplink relay: a TCP connection, or a UDP peer (an SRT
/// caller), with its own socket to the server. What the broadcast sends waits in `held`
/// until its time is due; the server's answers pass at once.
final class RelayFlow {
    /// TCP: the accepted connection; UDP: nil (datagrams come and go through the relay's
    /// listening socket, from and to `peer`).
    let client: Int32?
    let peer: sockaddr_in?
    let server: Int32
    private var held: [(due: UInt64, bytes: [UInt8])] = []
    private var first = 0
    /// Bytes of the first held chunk already written (TCP).
    private var written = 0
    private(set) var heldBytes = 0
    /// Bytes passed on to the server.
    private(set) var passed: UInt64 = 0
    /// Datagrams the relay's link lost while down.
    private(set) var dropped = 0
    /// The broadcast closed its side (TCP): the server's side is closed once `held` is empty.
    var clientEnded = false
    private var serverShut = false
    /// The server's side could take no more (TCP): poll for it to drain.
    private(set) var serverBlocked = false

    init(client: Int32?, peer: sockaddr_in?, server: Int32) {
        self.client = client
        self.peer = peer
        self.server = server
    }

    /// Due times never go backwards: a shorter delay set later does not let what was sent
    /// after overtake what was sent before.
    func hold(_ bytes: [UInt8], due: UInt64) {
        held.append((max(due, held.last?.due ?? 0), bytes))
        heldBytes += bytes.count
    }

    var nextDue: UInt64? { first < held.count ? held[first].due : nil }

    /// Writes what is due to the server, as far as `link` lets it; false when the server's
    /// side failed.
    func sendDue(now: UInt64, link: inout RelayLink) -> Bool {
        serverBlocked = false
        while first < held.count, held[first].due <= now {
            let chunk = held[first].bytes
            if client == nil && link.down {
                passFirst(delivered: false)
                dropped += 1
                continue
            }
            let allowed = min(link.allowance, chunk.count - written)
            // A datagram goes whole or waits.
            guard allowed > 0, client != nil || allowed == chunk.count else { break }
            let sent = chunk.withUnsafeBytes { raw in
                send(server, raw.baseAddress! + written, allowed, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    serverBlocked = true
                    return true
                }
                // A UDP server that is not there yet loses the datagram, as a network would.
                if client == nil { passFirst(delivered: false); continue }
                return false
            }
            link.spend(sent)
            if client == nil || written + sent == chunk.count {
                passFirst(delivered: true)
            } else {
                written += sent
            }
        }
        if first == held.count {
            held.removeAll(keepingCapacity: true)
            first = 0
            if clientEnded, client != nil, !serverShut {
                shutdown(server, Int32(SHUT_WR))
                serverShut = true
            }
        }
        return true
    }

    private func passFirst(delivered: Bool) {
        if delivered { passed += UInt64(held[first].bytes.count) }
        heldBytes -= held[first].bytes.count
        first += 1
        written = 0
    }

    func close() {
        if let client { Glibc.close(client) }
        Glibc.close(server)
    }
}
