// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import Glibc
import HLSPackaging
import Synchronization
import Testing

struct OutputFolderTests {
    static func scratch() -> String {
        var template = Array("/tmp/hlspackaging-XXXXXX".utf8CString)
        return String(cString: mkdtemp(&template)!)
    }

    static func contents(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    @Test func missingFoldersAreMadeAndFilesReplacedWhole() throws {
        let root = Self.scratch()
        let folder = try OutputFolder(making: "\(root)/live/720")
        try folder.write("index.m3u8", "#EXTM3U\n")
        try folder.write("index.m3u8", "#EXTM3U\n#EXT-X-VERSION:6\n")
        #expect(Self.contents("\(root)/live/720") == ["index.m3u8"], "no temporary file is left")
        let file = fopen("\(root)/live/720/index.m3u8", "r")!
        var buffer = [CChar](repeating: 0, count: 64)
        let read = fread(&buffer, 1, 63, file)
        fclose(file)
        #expect(read == 25)
        folder.remove("index.m3u8")
        folder.remove("index.m3u8")
        #expect(Self.contents("\(root)/live/720").isEmpty)
    }

    @Test func aFolderThatCannotBeMadeIsNamed() throws {
        let root = Self.scratch()
        let blocker = fopen("\(root)/file", "w")!
        fclose(blocker)
        #expect {
            try OutputFolder(making: "\(root)/file/sub")
        } throws: { error in
            (error as? OutputFolder.Failure)?.path == "\(root)/file/sub" && "\(error)".hasSuffix("Not a directory")
        }
        #expect {
            try OutputFolder(making: "\(root)/file")
        } throws: { error in
            "\(error)" == "\(root)/file: not a folder"
        }
    }

    /// Two threads writing one file 200 times each: every write succeeds, the file is always
    /// one of the two texts whole, never a mix, and no temporary copy is left.
    @Test func twoWritersOfOneFileNeverMix() throws {
        let root = Self.scratch()
        let folder = try OutputFolder(making: root)
        let texts = [String(repeating: "a", count: 50_000), String(repeating: "b", count: 70_000)]
        let failures = Mutex(0)
        let threads = texts.map { text in
            Thread {
                for _ in 0..<200 {
                    do { try folder.write("index.m3u8", text) } catch { failures.withLock { $0 += 1 } }
                }
            }
        }
        threads.forEach { $0.start() }
        var seen: Set<Int> = []
        while threads.contains(where: { !$0.isFinished }) {
            if let bytes = TrackPackagerTests.read("\(root)/index.m3u8") {
                #expect(Set(bytes).count == 1 && (bytes.count == 50_000 || bytes.count == 70_000), "\(bytes.count) bytes")
                seen.insert(bytes.count)
            }
        }
        #expect(failures.withLock { $0 } == 0, "\(failures.withLock { $0 }) of 400 writes failed")
        #expect(Self.contents(root) == ["index.m3u8"], "\(Self.contents(root))")
        print("two writers of one file: read \(seen.sorted()) bytes, never a mix")
    }
}
