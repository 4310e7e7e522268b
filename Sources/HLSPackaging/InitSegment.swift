// SPDX-License-Identifier: LGPL-2.1-or-later

/// The CMAF header of a one-track rendition (ISO/IEC 23000-19, 7.3.1), what a playlist's
/// `EXT-X-MAP` names: `ftyp`, then a `moov` whose sample tables are empty, because every
/// sample is in a fragment, and whose `mvex` announces those fragments.
public enum InitSegment {
    /// The brands: `iso6` for the `tfdt` version 1 and signed composition offsets the
    /// fragments use, `cmfc` for a CMAF track.
    public static func bytes(for format: TrackFormat, trackID: UInt32 = 1) -> [UInt8] {
        var writer = BoxWriter(capacity: 1024)
        writer.box("ftyp") { ftyp in
            ftyp.fourCC("iso6")
            ftyp.u32(0)
            ftyp.fourCC("iso6")
            ftyp.fourCC("cmfc")
        }
        writer.box("moov") { moov in
            movieHeader(&moov, nextTrackID: trackID + 1)
            moov.box("trak") { trak in
                trackHeader(&trak, format, trackID: trackID)
                trak.box("mdia") { mdia in
                    mdia.fullBox("mdhd") { mdhd in
                        mdhd.u32(0)
                        mdhd.u32(0)
                        mdhd.u32(format.timescale)
                        mdhd.u32(0)
                        mdhd.u16(0x55C4)  // "und", three 5-bit letters less 0x60
                        mdhd.u16(0)
                    }
                    mdia.fullBox("hdlr") { hdlr in
                        hdlr.u32(0)
                        if format.isVideo { hdlr.fourCC("vide") } else { hdlr.fourCC("soun") }
                        hdlr.zeros(12)
                        hdlr.append((format.isVideo ? "ReplayCast video" : "ReplayCast audio").utf8)
                        hdlr.u8(0)
                    }
                    mdia.box("minf") { minf in
                        if format.isVideo {
                            minf.fullBox("vmhd", flags: 1) { $0.zeros(8) }
                        } else {
                            minf.fullBox("smhd") { $0.zeros(4) }
                        }
                        minf.box("dinf") { dinf in
                            dinf.fullBox("dref") { dref in
                                dref.u32(1)
                                dref.fullBox("url ", flags: 1) { _ in }  // flag 1: the media is in this file
                            }
                        }
                        minf.box("stbl") { stbl in
                            stbl.fullBox("stsd") { stsd in
                                stsd.u32(1)
                                sampleEntry(&stsd, format.codec)
                            }
                            stbl.fullBox("stts") { $0.u32(0) }
                            stbl.fullBox("stsc") { $0.u32(0) }
                            stbl.fullBox("stsz") { $0.zeros(8) }
                            stbl.fullBox("stco") { $0.u32(0) }
                        }
                    }
                }
            }
            moov.box("mvex") { mvex in
                mvex.fullBox("trex") { trex in
                    trex.u32(trackID)
                    trex.u32(1)
                    trex.zeros(12)
                }
            }
        }
        return writer.bytes
    }

    private static let unityMatrix: [UInt32] = [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000]

    private static func movieHeader(_ moov: inout BoxWriter, nextTrackID: UInt32) {
        moov.fullBox("mvhd") { mvhd in
            mvhd.u32(0)
            mvhd.u32(0)
            mvhd.u32(1000)
            mvhd.u32(0)
            mvhd.u32(0x0001_0000)  // rate 1.0
            mvhd.u16(0x0100)  // volume 1.0
            mvhd.zeros(10)
            unityMatrix.forEach { mvhd.u32($0) }
            mvhd.zeros(24)
            mvhd.u32(nextTrackID)
        }
    }

    private static func trackHeader(_ trak: inout BoxWriter, _ format: TrackFormat, trackID: UInt32) {
        // Flags: enabled, in the movie.
        trak.fullBox("tkhd", flags: 0x3) { tkhd in
            tkhd.u32(0)
            tkhd.u32(0)
            tkhd.u32(trackID)
            tkhd.u32(0)
            tkhd.u32(0)
            tkhd.zeros(8)
            tkhd.u16(0)
            tkhd.u16(0)
            tkhd.u16(format.isVideo ? 0 : 0x0100)
            tkhd.u16(0)
            unityMatrix.forEach { tkhd.u32($0) }
            let (width, height) = format.pictureSize ?? (0, 0)
            tkhd.u32(UInt32(width) << 16)
            tkhd.u32(UInt32(height) << 16)
        }
    }

    private static func sampleEntry(_ stsd: inout BoxWriter, _ codec: TrackFormat.Codec) {
        switch codec {
        case .h264(let record, let width, let height):
            visualSampleEntry(&stsd, "avc1", width: width, height: height) { $0.box("avcC") { $0.append(record) } }
        case .h265(let record, let width, let height):
            visualSampleEntry(&stsd, "hvc1", width: width, height: height) { $0.box("hvcC") { $0.append(record) } }
        case .aac(let config, let sampleRate, let channels):
            stsd.box("mp4a") { mp4a in
                mp4a.zeros(6)
                mp4a.u16(1)  // data reference index
                mp4a.zeros(8)
                mp4a.u16(UInt16(channels))
                mp4a.u16(16)
                mp4a.zeros(4)
                // 16.16 fixed point; rates past 65535 Hz are announced in the AudioSpecificConfig only.
                mp4a.u32(UInt32(min(sampleRate, 65535)) << 16)
                mp4a.fullBox("esds") { esds in ElementaryStreamDescriptor.write(&esds, audioSpecificConfig: config) }
            }
        }
    }

    private static func visualSampleEntry(_ stsd: inout BoxWriter, _ type: StaticString, width: Int, height: Int,
                                          configuration: (inout BoxWriter) -> Void) {
        stsd.box(type) { entry in
            entry.zeros(6)
            entry.u16(1)  // data reference index
            entry.zeros(16)
            entry.u16(UInt16(width))
            entry.u16(UInt16(height))
            entry.u32(0x0048_0000)  // 72 dpi
            entry.u32(0x0048_0000)
            entry.u32(0)
            entry.u16(1)  // frames per sample
            entry.zeros(32)  // compressor name, empty
            entry.u16(0x0018)
            entry.u16(0xFFFF)  // pre_defined = -1
            configuration(&entry)
        }
    }
}

extension TrackFormat {
    var pictureSize: (Int, Int)? {
        switch codec {
        case .h264(_, let width, let height), .h265(_, let width, let height): (width, height)
        case .aac: nil
        }
    }
}
