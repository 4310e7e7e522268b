// SPDX-License-Identifier: LGPL-2.1-or-later

/// The `esds` body of an AAC track (ISO/IEC 14496-1, 7.2.6.5 and 7.2.6.6; ISO/IEC 14496-14,
/// 5.6): an ES descriptor holding the decoder configuration, whose specific info is the
/// AudioSpecificConfig, and the SL descriptor MP4 files always carry.
enum ElementaryStreamDescriptor {
    static func write(_ esds: inout BoxWriter, audioSpecificConfig config: [UInt8]) {
        let decoderSpecific = descriptor(tag: 0x05, config)
        var decoderConfig: [UInt8] = [0x40, 0x15]  // MPEG-4 audio; audio stream, upstream = 0, reserved = 1
        decoderConfig += [0, 0, 0]  // buffer size: unknown
        decoderConfig += [0, 0, 0, 0, 0, 0, 0, 0]  // maximum and average bit rate: unknown
        decoderConfig += decoderSpecific
        var elementary: [UInt8] = [0, 0, 0]  // ES_ID 0 (MP4 files leave it to the track), no flags
        elementary += descriptor(tag: 0x04, decoderConfig)
        elementary += descriptor(tag: 0x06, [0x02])  // predefined SL configuration 2: MP4
        esds.append(descriptor(tag: 0x03, elementary))
    }

    /// A tag, the body's length in 7-bit groups (high bit set on all but the last), the body.
    static func descriptor(tag: UInt8, _ body: [UInt8]) -> [UInt8] {
        var length: [UInt8] = [UInt8(body.count & 0x7F)]
        var rest = body.count >> 7
        while rest > 0 {
            length.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return [tag] + length + body
    }
}
