// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import MediaKernels

/// The part of negotiated raw-audio caps our audio kernels need.
struct AudioFormat: Equatable {
    var sampleFormat: SampleFormat
    var rate: Int
    var channels: Int
    var roles: [KWeighting.ChannelRole]
    /// Channels without a position (caps with channel-mask 0, or beyond the 64 GStreamer
    /// positions): they weigh as front channels in loudness.
    var unpositioned: Int

    var bytesPerFrame: Int { sampleFormat.bytesPerSample * channels }

    /// nil when the caps are not interleaved raw audio in a format we read.
    init?(caps: UnsafeMutablePointer<GstCaps>) {
        var info = GstAudioInfo()
        guard gst_audio_info_from_caps(&info, caps) != 0, info.layout == GST_AUDIO_LAYOUT_INTERLEAVED,
              let finfo = info.finfo else { return nil }
        switch finfo.pointee.format {
        case GST_AUDIO_FORMAT_S8: sampleFormat = .s8
        case GST_AUDIO_FORMAT_S16LE: sampleFormat = .s16le
        case GST_AUDIO_FORMAT_S16BE: sampleFormat = .s16be
        case GST_AUDIO_FORMAT_S32LE: sampleFormat = .s32le
        case GST_AUDIO_FORMAT_F32LE: sampleFormat = .f32le
        case GST_AUDIO_FORMAT_F64LE: sampleFormat = .f64le
        default: return nil
        }
        rate = Int(info.rate)
        channels = Int(info.channels)
        let count = channels
        // GstAudioInfo has positions for the first 64 channels; any beyond have none.
        let positions = withUnsafeBytes(of: &info.position) { raw in
            Array(raw.bindMemory(to: GstAudioChannelPosition.self).prefix(count))
        }
        unpositioned = positions.count(where: { $0 == GST_AUDIO_CHANNEL_POSITION_NONE }) + count - positions.count
        roles = positions.map(Self.role) + Array(repeating: .front, count: count - positions.count)
    }

    private static func role(_ position: GstAudioChannelPosition) -> KWeighting.ChannelRole {
        switch position {
        case GST_AUDIO_CHANNEL_POSITION_LFE1, GST_AUDIO_CHANNEL_POSITION_LFE2:
            .lowFrequency
        case GST_AUDIO_CHANNEL_POSITION_REAR_LEFT, GST_AUDIO_CHANNEL_POSITION_REAR_RIGHT,
             GST_AUDIO_CHANNEL_POSITION_SIDE_LEFT, GST_AUDIO_CHANNEL_POSITION_SIDE_RIGHT,
             GST_AUDIO_CHANNEL_POSITION_SURROUND_LEFT, GST_AUDIO_CHANNEL_POSITION_SURROUND_RIGHT:
            .surround
        default:
            .front
        }
    }
}
