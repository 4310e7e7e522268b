// SPDX-License-Identifier: LGPL-2.1-or-later
import HLSPackaging

/// What the renditions of one llhlssink share, under one lock: each one's newest part (for
/// the others' rendition reports), its format and bit rates (for the multivariant playlist),
/// which have ended, and the wall clock at running time 0, so every rendition dates its
/// segments on one timeline.
struct Ladder {
    struct Entry {
        var isVideo: Bool
        var lastPart: (sequence: UInt64, index: Int)?
        var format: TrackFormat?
        var frameRate: Double?
        var peakBitrate = 0
        var averageBitrate = 0
        var segments = 0
    }

    var entries: [String: Entry] = [:]
    var ended: Set<String> = []
    /// Seconds since 1970 at running time 0, from the first buffer.
    var wallClockAtZero: Double?
    var playing = false
    var eosSeqnum: UInt32?
    var multivariant = ""

    var finished: Bool { !entries.isEmpty && ended.count == entries.count }

    /// The other renditions' newest parts, their playlists named from a sibling folder.
    func reports(besides name: String) -> [MediaPlaylist.RenditionReport] {
        entries.keys.sorted().filter { $0 != name }.compactMap { other in
            entries[other]!.lastPart.map { .init(uri: "../\(other)/\(TrackPackager.playlistName)", lastSequence: $0.sequence, lastPart: $0.index) }
        }
    }

    /// The multivariant playlist once every rendition has a complete segment: its bit rates
    /// are measured, not guessed. Nil before.
    var multivariantText: String? {
        guard !entries.isEmpty, entries.values.allSatisfy({ $0.segments > 0 && $0.format != nil }) else { return nil }
        let names = entries.keys.sorted()
        let audio = names.first { !entries[$0]!.isVideo }.map { name in
            let entry = entries[name]!
            return MultivariantPlaylist.Audio(uri: "\(name)/\(TrackPackager.playlistName)", name: name, peakBitrate: entry.peakBitrate,
                                              averageBitrate: entry.averageBitrate, format: entry.format!)
        }
        let videos = names.filter { entries[$0]!.isVideo }.map { name in
            let entry = entries[name]!
            return MultivariantPlaylist.Video(uri: "\(name)/\(TrackPackager.playlistName)", peakBitrate: entry.peakBitrate,
                                              averageBitrate: entry.averageBitrate, format: entry.format!, frameRate: entry.frameRate)
        }
        guard videos.isEmpty, let audio else { return MultivariantPlaylist(videos: videos, audio: audio).text }
        let only = MultivariantPlaylist.Video(uri: audio.uri, peakBitrate: audio.peakBitrate, averageBitrate: audio.averageBitrate,
                                              format: audio.format, frameRate: nil)
        return MultivariantPlaylist(videos: [only], audio: nil).text
    }
}
