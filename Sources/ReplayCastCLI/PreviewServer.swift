// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import ReplayCastKit
import ReplayCastTools
import Synchronization

/// `replaycast run --serve ADDRESS:PORT`: a small HTTP/1.1 server for watching a broadcast
/// while it runs. `/` is the preview page, `/events` a Server-Sent Events stream of status
/// updates, and any other path a file of the output folder — only a regular file whose real
/// path (links resolved) lies inside that folder; anything else is 404. One thread accepts,
/// one short-lived thread per request; event streams stay open until the server stops.
final class PreviewServer: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let address: String
    let port: UInt16
    let folder: String
    private let page: String
    private let listener: Int32
    private let eventClients = Mutex<[Int32]>([])
    private let stopped = Atomic<Bool>(false)

    /// `address`: "PORT" (loopback) or "HOST:PORT", HOST an IPv4 address.
    init(address text: String, folder: String, page: String) throws {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let host = parts.count == 2 ? String(parts[0]) : "127.0.0.1"
        guard parts.count <= 2, let port = UInt16(parts.last ?? "") else {
            throw Failure(description: "--serve expects HOST:PORT or PORT, got '\(text)'")
        }
        guard let real = realpath(folder, nil) else { throw Failure(description: "--serve: the output folder \(folder) does not exist") }
        self.folder = String(cString: real)
        free(real)
        self.page = page
        address = host
        do { listener = try IPv4Socket.bound(.tcp, host: host, port: port) } catch {
            throw Failure(description: "--serve: \(error)")
        }
        self.port = IPv4Socket.port(of: listener)
    }

    func start() {
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Closes the listener and every event stream; requests in flight finish on their own.
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        eventClients.withLock { clients in
            for client in clients { close(client) }
            clients.removeAll()
        }
    }

    /// Sends one event to every open event stream, dropping streams that went away.
    func publish(_ json: String) {
        let frame = Array("data: \(json)\n\n".utf8)
        eventClients.withLock { clients in
            clients.removeAll { client in
                guard Self.send(client, frame) else {
                    close(client)
                    return true
                }
                return false
            }
        }
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            Thread.detachNewThread { [self] in handle(client) }
        }
    }

    private func handle(_ client: Int32) {
        guard let (method, target) = Self.readRequest(client) else {
            close(client)
            return
        }
        guard method == "GET" || method == "HEAD" else {
            respond(client, status: "405 Method Not Allowed", type: "text/plain", body: Array("only GET and HEAD\n".utf8), head: false)
            return
        }
        let path = String(target.prefix { $0 != "?" })
        switch path {
        case "/", "/index.html":
            respond(client, status: "200 OK", type: "text/html; charset=utf-8", body: Array(page.utf8), head: method == "HEAD")
        case "/events":
            let header = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: keep-alive\r\n\r\n"
            guard Self.send(client, Array(header.utf8)), !stopped.load(ordering: .relaxed) else {
                close(client)
                return
            }
            eventClients.withLock { $0.append(client) }
        default:
            guard let file = ServedPath.resolve(path, in: folder), let data = FileManager.default.contents(atPath: file) else {
                respond(client, status: "404 Not Found", type: "text/plain", body: Array("not found\n".utf8), head: method == "HEAD")
                return
            }
            respond(client, status: "200 OK", type: ServedPath.contentType(of: file), body: [UInt8](data), head: method == "HEAD")
        }
    }

    private func respond(_ client: Int32, status: String, type: String, body: [UInt8], head: Bool) {
        let header = "HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\n"
            + "Cache-Control: no-cache\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n"
        if Self.send(client, Array(header.utf8)), !head { _ = Self.send(client, body) }
        close(client)
    }

    /// The request line's method and target; the headers are read and ignored.
    private static func readRequest(_ client: Int32) -> (String, String)? {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while received.count < 16384 {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            received += chunk[0 ..< count]
            if String(decoding: received, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        let firstLine = String(decoding: received, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = firstLine.split(separator: " ")
        guard parts.count == 3 else { return nil }
        return (String(parts[0]), String(parts[1]))
    }

    private static func send(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(client, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }
}

/// Which file a request path names, if any: percent-decoded, no `.` or `..` segments, and
/// its real path (links resolved) inside the folder.
enum ServedPath {
    static func resolve(_ path: String, in folder: String) -> String? {
        guard path.hasPrefix("/"), let decoded = path.removingPercentEncoding, !decoded.contains("\0") else { return nil }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard !segments.isEmpty, segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
        let candidate = folder + "/" + segments.joined(separator: "/")
        guard let real = realpath(candidate, nil) else { return nil }
        defer { free(real) }
        let resolved = String(cString: real)
        var info = stat()
        guard resolved.hasPrefix(folder + "/"), stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return resolved
    }

    static func contentType(of file: String) -> String {
        switch (file as NSString).pathExtension.lowercased() {
        case "m3u8": "application/vnd.apple.mpegurl"
        case "ts": "video/mp2t"
        case "mp4", "m4s": "video/mp4"
        case "png": "image/png"
        case "html": "text/html; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
