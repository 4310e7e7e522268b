import CGStreamer
import MediaKernels

/// The part of negotiated raw-audio caps our audio kernels need.
struct AudioFormat: Equatable {
    var sampleFormat: SampleFormat
    var rate: Int
    var channels: Int
    var roles: [KWeighting.ChannelRole]

    var bytesPerFrame: Int { sampleFormat.bytesPerSample * channels }

    /// nil when the caps are not interleaved raw audio in a format we read.
    init?(caps: UnsafeMutablePointer<GstCaps>) {
        var info = GstAudioInfo()
        guard gst_audio_info_from_caps(&info, caps) != 0, info.layout == GST_AUDIO_LAYOUT_INTERLEAVED,
              let finfo = info.finfo else { return nil }
        switch finfo.pointee.format {
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
        roles = withUnsafeBytes(of: &info.position) { raw in
            raw.bindMemory(to: GstAudioChannelPosition.self).prefix(count).map(Self.role)
        }
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
