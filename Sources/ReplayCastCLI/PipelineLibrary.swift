// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation

/// Where `replaycast list` and `replaycast run NAME` find pipeline files: `pipelines/` in
/// the current folder (a checkout), then the folder `scripts/install` copies them to.
enum PipelineLibrary {
    static var folders: [String] {
        var folders = ["pipelines"]
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            folders.append("\(data)/replaycast/pipelines")
        } else if let home = environment["HOME"] {
            folders.append("\(home)/.local/share/replaycast/pipelines")
        }
        return folders
    }

    struct Entry {
        let name: String
        let path: String
        let summary: String
    }

    /// Every `.pipeline` file, the first folder winning for a name.
    static func entries() -> [Entry] {
        var seen = Set<String>()
        var entries: [Entry] = []
        for folder in folders {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for file in files.sorted() where file.hasSuffix(".pipeline") {
                let name = String(file.dropLast(".pipeline".count))
                guard seen.insert(name).inserted else { continue }
                let path = "\(folder)/\(file)"
                entries.append(Entry(name: name, path: path, summary: summary(of: path)))
            }
        }
        return entries
    }

    /// A path as given when it names a file, else the library's file of that name.
    static func resolve(_ argument: String) -> String {
        if FileManager.default.fileExists(atPath: argument) || argument.contains("/") { return argument }
        let name = argument.hasSuffix(".pipeline") ? String(argument.dropLast(".pipeline".count)) : argument
        return entries().first { $0.name == name }?.path ?? argument
    }

    /// The header's first sentence: its first comment lines up to a full stop or a blank
    /// comment line, after the licence line.
    static func summary(of path: String) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return "" }
        var words: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("#") else { break }
            let body = line.dropFirst().trimmingCharacters(in: .whitespaces)
            if body.hasPrefix("SPDX-License-Identifier:") { continue }
            if body.isEmpty { if words.isEmpty { continue } else { break } }
            words.append(body)
            if body.hasSuffix(".") { break }
        }
        let joined = words.joined(separator: " ")
        let sentence = joined.range(of: ". ").map { String(joined[..<$0.lowerBound]) } ?? joined
        return sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
    }
}
