// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayKitModel

/// The `trace` property's file, read when the broadcast starts.
enum TraceFile {
    /// The checked trace; a failure names the file, the line, the field and why.
    static func load(_ path: String) throws(BroadcastConfiguration.Failure) -> BroadcastTrace {
        var contents: UnsafeMutablePointer<gchar>?
        var length: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        guard g_file_get_contents(path, &contents, &length, &error) != 0, let contents else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unreadable"
            g_clear_error(&error)
            throw .init(description: "trace \(path): \(reason)")
        }
        defer { g_free(contents) }
        let text = String(decoding: UnsafeRawBufferPointer(start: contents, count: Int(length)), as: UTF8.self)
        do {
            return try TraceReader.read(text)
        } catch {
            throw .init(description: "trace " + error.located(in: path))
        }
    }

    /// broadcastStarted's setup info as a setup-info structure string: numbers, strings and
    /// booleans keep their type; anything else becomes its JSON text.
    static func setupInfo(_ members: [(key: String, value: JSONValue)]) -> String {
        guard !members.isEmpty else { return "" }
        let structure = gst_structure_new_empty("setup")!
        defer { gst_structure_free(structure) }
        for (key, value) in members {
            let field = g_quark_from_string(key)
            switch value {
            case .string(let text): structure.set(field, string: text)
            case .bool(let flag): structure.set(field, bool: flag)
            case .number(let text):
                if let integer = Int32(text) {
                    structure.set(field, int: integer)
                } else {
                    structure.set(field, double: Double(text) ?? 0)
                }
            default: structure.set(field, string: value.text)
            }
        }
        let text = gst_structure_to_string(structure)!
        defer { g_free(text) }
        return String(cString: text)
    }
}
