// SPDX-License-Identifier: LGPL-2.1-or-later

/// What one CMAF track carries: the codec with its decoder configuration as the parsers
/// give it in caps (`codec_data`), and the track's timescale (ticks per second).
public struct TrackFormat: Sendable, Equatable {
    public enum Codec: Sendable, Equatable {
        /// `avcC`'s body, an AVCDecoderConfigurationRecord (ISO/IEC 14496-15, 5.3.3.1).
        case h264(configuration: [UInt8], width: Int, height: Int)
        /// `hvcC`'s body, an HEVCDecoderConfigurationRecord (ISO/IEC 14496-15, 8.3.3.1).
        case h265(configuration: [UInt8], width: Int, height: Int)
        /// An AudioSpecificConfig (ISO/IEC 14496-3, 1.6.2.1).
        case aac(configuration: [UInt8], sampleRate: Int, channels: Int)
    }

    public var codec: Codec
    public var timescale: UInt32

    public init(codec: Codec, timescale: UInt32) {
        self.codec = codec
        self.timescale = timescale
    }

    /// Video at 90 kHz, as MPEG systems count; AAC at its sample rate, so every frame of 1024
    /// samples lasts a whole number of ticks.
    public static func h264(configuration: [UInt8], width: Int, height: Int) -> TrackFormat {
        TrackFormat(codec: .h264(configuration: configuration, width: width, height: height), timescale: 90_000)
    }

    public static func h265(configuration: [UInt8], width: Int, height: Int) -> TrackFormat {
        TrackFormat(codec: .h265(configuration: configuration, width: width, height: height), timescale: 90_000)
    }

    public static func aac(configuration: [UInt8], sampleRate: Int, channels: Int) -> TrackFormat {
        TrackFormat(codec: .aac(configuration: configuration, sampleRate: sampleRate, channels: channels),
                    timescale: UInt32(sampleRate))
    }

    public var isVideo: Bool {
        if case .aac = codec { return false }
        return true
    }

    /// The `CODECS` attribute value of this track (RFC 8216bis, 4.4.6.2; RFC 6381, 3.3):
    /// `avc1.PPCCLL` from the record's profile, compatibility and level bytes,
    /// `hvc1.…` from the HEVC record's general profile, tier and level, `mp4a.40.N` from the
    /// AudioSpecificConfig's object type.
    public var codecsAttribute: String {
        switch codec {
        case .h264(let record, _, _):
            guard record.count >= 4 else { return "avc1" }
            return "avc1." + record[1...3].map(hex).joined()
        case .h265(let record, _, _):
            return hevcCodecString(record) ?? "hvc1"
        case .aac(let config, _, _):
            guard let first = config.first else { return "mp4a.40.2" }
            return "mp4a.40.\(first >> 3)"
        }
    }
}

private func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
}

/// `hvc1.P.C.TL.B…` (ISO/IEC 14496-15, E.3): general profile space and idc, the
/// compatibility flags bit-reversed in hex, tier and level, then the constraint bytes
/// without trailing zeros.
private func hevcCodecString(_ record: [UInt8]) -> String? {
    guard record.count >= 13 else { return nil }
    let space = ["", "A", "B", "C"][Int(record[1] >> 6)]
    let tier = (record[1] >> 5) & 1 == 1 ? "H" : "L"
    let profile = record[1] & 0x1F
    let flags = UInt32(record[2]) << 24 | UInt32(record[3]) << 16 | UInt32(record[4]) << 8 | UInt32(record[5])
    var reversed: UInt32 = 0
    for bit in 0..<32 where flags & (1 << bit) != 0 { reversed |= 1 << (31 - bit) }
    var constraints = Array(record[6...11])
    while constraints.last == 0 { constraints.removeLast() }
    let level = record[12]
    var parts = ["hvc1", "\(space)\(profile)", String(reversed, radix: 16, uppercase: true), "\(tier)\(level)"]
    parts += constraints.map(hex)
    return parts.joined(separator: ".")
}
