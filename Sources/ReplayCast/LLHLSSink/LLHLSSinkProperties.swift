// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import HLSPackaging
import MediaKernels

/// hlssink2's names and meanings for target-duration and playlist-length; location is a
/// folder here (a playlist and files per rendition), part-duration our own.
extension LLHLSSink {
    static let properties = PropertyTable(\RcLLHLSSink.settings, [
        .string(\.location, "location", "Location",
                "Folder to write to, made if missing: index.m3u8 (the multivariant playlist) and a folder per rendition "
                + "(its pad's name) with index.m3u8, init.mp4, segments and parts",
                default: "hls", .mutableReady),
        .uint(\.target_duration, "target-duration", "Target duration",
              "The target duration in seconds of a segment: segments end at the first keyframe from there on", 1...60,
              default: 2, .mutableReady),
        .uint(\.playlist_length, "playlist-length", "Playlist length",
              "Segments each media playlist lists, at least 3 (section 6.2.2 of RFC 8216bis); 0: all of them",
              0...UInt32.max, default: 6, .mutableReady),
        .uint64(\.part_duration, "part-duration", "Part duration",
                "The longest a part may last (PART-TARGET; in nanoseconds): a part ends before the frame that would "
                + "take it longer", 10_000_000...10 * Timebase.nanosecondsPerSecond,
                default: 300 * Timebase.nanosecondsPerMillisecond, .mutableReady),
    ])
}

@_cdecl("rc_llhlssink_properties")
func llhlsSinkProperties() -> UnsafeRawPointer { LLHLSSink.properties.opaque }

/// The properties, as Swift works with them.
struct LLHLSSettings {
    var location: String
    var packaging: TrackPackager.Settings

    init(_ raw: RcLLHLSSinkSettings) {
        location = raw.location.map { String(cString: $0) } ?? ""
        // playlist-length 0 lists every segment: a window no broadcast outlasts.
        packaging = TrackPackager.Settings(partTarget: Timebase.seconds(raw.part_duration), segmentTarget: Double(raw.target_duration),
                                          window: raw.playlist_length == 0 ? Int(Int32.max) : Int(raw.playlist_length))
    }
}
