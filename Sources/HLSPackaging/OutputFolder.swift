// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

/// A folder that playlists, parts and segments are written into, each file whole or not at
/// all: written under a temporary name in the same folder, then renamed over the old one
/// (rename(2) is atomic within a file system), so a player never reads half a file.
public struct OutputFolder: Sendable {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    public let path: String

    /// Makes the folder and its missing parents, as `mkdir -p` does; an existing folder is
    /// kept. Fails naming the folder that could not be made or is not writable.
    public init(making path: String) throws {
        self.path = path
        var made = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            made += (made.isEmpty || made.hasSuffix("/") ? "" : "/") + component
            if mkdir(made, 0o755) != 0 && errno != EEXIST { throw Failure(path: made, reason: Self.reason()) }
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw Failure(path: path, reason: Self.reason()) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw Failure(path: path, reason: "not a folder") }
        guard access(path, W_OK | X_OK) == 0 else { throw Failure(path: path, reason: Self.reason()) }
    }

    /// Writes `name` whole, replacing what was there. The temporary name is the writing
    /// thread's own, so two threads writing one file never write into each other's copy:
    /// the file is whichever rename came last.
    public func write(_ name: String, _ bytes: UnsafeRawBufferPointer) throws {
        let final = "\(path)/\(name)"
        let temporary = "\(path)/.\(name).\(pthread_self()).partial"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(path: temporary, reason: Self.reason()) }
        var written = 0
        while written < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let reason = Self.reason()
                close(descriptor)
                unlink(temporary)
                throw Failure(path: temporary, reason: reason)
            }
            written += count
        }
        close(descriptor)
        guard rename(temporary, final) == 0 else {
            let reason = Self.reason()
            unlink(temporary)
            throw Failure(path: final, reason: reason)
        }
    }

    public func write(_ name: String, _ text: String) throws {
        try Array(text.utf8).withUnsafeBytes { try write(name, $0) }
    }

    /// Removes `name`; one already gone is not an error.
    public func remove(_ name: String) {
        unlink("\(path)/\(name)")
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
