// SPDX-License-Identifier: LGPL-2.1-or-later
import ReplayCastSupport

/// A publish URL (`rtmp://` or `srt://`) taken through an uplink relay: the relay on
/// 127.0.0.1 passes to the URL's host and port, and the broadcast publishes to the relay
/// with the rest of the URL (application, stream, query) as it was.
struct RelayedURL {
    let relay: UplinkRelay
    let url: String

    init(_ original: String) throws(UplinkRelay.Failure) {
        guard let server = PublishTransport.server(original), (1...65535).contains(server.port) else {
            throw UplinkRelay.Failure(description: "\(original): not rtmp://, rtmps:// or srt:// with a port to relay to")
        }
        guard let address = IPv4Socket.resolved(server.host) else {
            throw UplinkRelay.Failure(description: "\(original): cannot resolve \(server.host) to an IPv4 address")
        }
        relay = try UplinkRelay(port: 0, serverHost: address, serverPort: server.port)
        url = "\(original.prefix { $0 != ":" })://127.0.0.1:\(relay.port)\(server.rest)"
    }
}
