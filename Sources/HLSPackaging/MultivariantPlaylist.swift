// SPDX-License-Identifier: LGPL-2.1-or-later

/// The multivariant playlist of a rendition ladder (RFC 8216bis, 4.4.6): one
/// `EXT-X-STREAM-INF` per video rendition, each naming the audio group its audio plays from,
/// and the audio rendition as `EXT-X-MEDIA`. An audio-only broadcast is one variant whose
/// `Video` is the audio playlist, with no audio group.
public struct MultivariantPlaylist: Sendable, Equatable {
    public struct Video: Sendable, Equatable {
        public var uri: String
        /// Peak and average segment bit rates of the video alone, bits per second.
        public var peakBitrate: Int
        public var averageBitrate: Int
        public var format: TrackFormat
        /// `FRAME-RATE`, where the stream says it.
        public var frameRate: Double?

        public init(uri: String, peakBitrate: Int, averageBitrate: Int, format: TrackFormat, frameRate: Double?) {
            self.uri = uri
            self.peakBitrate = peakBitrate
            self.averageBitrate = averageBitrate
            self.format = format
            self.frameRate = frameRate
        }
    }

    public struct Audio: Sendable, Equatable {
        public var uri: String
        public var name: String
        public var peakBitrate: Int
        public var averageBitrate: Int
        public var format: TrackFormat

        public init(uri: String, name: String, peakBitrate: Int, averageBitrate: Int, format: TrackFormat) {
            self.uri = uri
            self.name = name
            self.peakBitrate = peakBitrate
            self.averageBitrate = averageBitrate
            self.format = format
        }
    }

    public static let audioGroup = "audio"

    public var videos: [Video]
    public var audio: Audio?

    public init(videos: [Video], audio: Audio?) {
        self.videos = videos
        self.audio = audio
    }

    /// `BANDWIDTH` is each video's peak plus the audio's, as every variant plays both
    /// (4.4.6.2); `CODECS` lists both formats. Version 4: `EXT-X-MEDIA` with its `CHANNELS`.
    public var text: String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:4"]
        if let audio {
            var channels = 2
            if case .aac(_, _, let count) = audio.format.codec { channels = count }
            lines.append("#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\(PlaylistText.quoted(Self.audioGroup)),NAME=\(PlaylistText.quoted(audio.name)),"
                + "DEFAULT=YES,AUTOSELECT=YES,CHANNELS=\(PlaylistText.quoted(String(channels))),URI=\(PlaylistText.quoted(audio.uri))")
        }
        for video in videos {
            var attributes = [
                "BANDWIDTH=\(video.peakBitrate + (audio?.peakBitrate ?? 0))",
                "AVERAGE-BANDWIDTH=\(video.averageBitrate + (audio?.averageBitrate ?? 0))",
                "CODECS=" + PlaylistText.quoted(([video.format.codecsAttribute] + (audio.map { [$0.format.codecsAttribute] } ?? [])).joined(separator: ",")),
            ]
            if let (width, height) = video.format.pictureSize { attributes.append("RESOLUTION=\(width)x\(height)") }
            if let frameRate = video.frameRate { attributes.append("FRAME-RATE=" + PlaylistText.decimal(frameRate, places: 3)) }
            if audio != nil { attributes.append("AUDIO=\(PlaylistText.quoted(Self.audioGroup))") }
            lines.append("#EXT-X-STREAM-INF:" + attributes.joined(separator: ","))
            lines.append(video.uri)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
