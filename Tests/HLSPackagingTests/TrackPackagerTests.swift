// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc
import HLSPackaging
import Testing

struct TrackPackagerTests {
    static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while case let count = fread(&buffer, 1, buffer.count, file), count > 0 { bytes += buffer[0..<count] }
        return bytes
    }

    /// 5 s of 30 fps video with a keyframe a second, in 0.3 s parts and 1 s segments: every
    /// part file is one fragment whose decode time follows the last, every segment is its parts,
    /// and the playlist lists what is on disk.
    @Test func partsSegmentsAndThePlaylistAgree() throws {
        let path = OutputFolderTests.scratch() + "/video"
        var packager = try TrackPackager(format: .h264(configuration: InitSegmentTests.avcRecord, width: 64, height: 48),
                                         settings: .init(partTarget: 0.3, segmentTarget: 1, window: 4), folder: OutputFolder(making: path))
        var written = 0
        for frame in 0..<150 {
            let bytes = [UInt8](repeating: UInt8(frame % 256), count: 100 + frame)
            written += try bytes.withUnsafeBytes {
                try packager.add(decodeTime: UInt64(frame) * 3000, duration: 3000, isSync: frame % 30 == 0, bytes: $0,
                                 wallClock: 1_764_820_800 + Double(frame) / 30)
            } ? 1 : 0
            try packager.writePlaylist()
        }
        try packager.finish()
        try packager.writePlaylist()
        // Per segment of 30 frames: parts of 9, 9, 9, 3.
        #expect(written == 4 * 5 - 1)
        let playlist = try #require(Self.read("\(path)/index.m3u8")).map { Character(Unicode.Scalar($0)) }
        let lines = String(playlist).split(separator: "\n")
        #expect(lines.contains("#EXT-X-MEDIA-SEQUENCE:1") && lines.last == "#EXT-X-ENDLIST")
        #expect(lines.filter { $0.hasPrefix("#EXTINF:") } == Array(repeating: "#EXTINF:1.00000,", count: 4))
        var nextDecodeTime: UInt64 = 30 * 3000
        for sequence in 1...4 {
            let segment = try #require(Self.read("\(path)/segment\(sequence).m4s"))
            var joined: [UInt8] = []
            for index in 0..<4 {
                let part = try #require(Self.read("\(path)/part\(sequence).\(index).m4s"), "part \(sequence).\(index)")
                let tfdt = BoxTree.parse(ArraySlice(part)).find("moof/traf/tfdt")!.body
                #expect(tfdt.u64(tfdt.startIndex + 4) == nextDecodeTime)
                nextDecodeTime += UInt64(index == 3 ? 3 : 9) * 3000
                joined += part
            }
            #expect(segment == joined, "segment \(sequence) is its four parts")
        }
        // Segment 0 left the window; its files stay until a window more have left.
        #expect(Self.read("\(path)/segment0.m4s") != nil && Self.read("\(path)/init.mp4")?.count ?? 0 > 500)
        #expect(OutputFolderTests.contents(path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test(arguments: [
        (TrackPackager.Settings(partTarget: 2, segmentTarget: 1, window: 6), "parts of 2.0 s are longer than segments of 1.0 s"),
        (TrackPackager.Settings(partTarget: 0.5, segmentTarget: 2, window: 2), "2 segments of 2.0 s last less than three target durations (6 s)"),
        (TrackPackager.Settings(partTarget: 0, segmentTarget: 2, window: 6), "a part duration of 0.0 s"),
    ])
    func settingsThatCannotMakeAValidPlaylistSayWhy(settings: TrackPackager.Settings, problem: String) {
        #expect(settings.problem == problem)
    }
}
