// SPDX-License-Identifier: LGPL-2.1-or-later

/// One sample of a fragment, in its track's timescale.
public struct FragmentSample: Sendable, Equatable {
    public var decodeTime: UInt64
    public var duration: UInt32
    public var size: UInt32
    /// Presentation minus decode time; negative where B-frames reorder.
    public var compositionOffset: Int32
    public var isSync: Bool

    public init(decodeTime: UInt64, duration: UInt32, size: UInt32, compositionOffset: Int32 = 0, isSync: Bool) {
        self.decodeTime = decodeTime
        self.duration = duration
        self.size = size
        self.compositionOffset = compositionOffset
        self.isSync = isSync
    }
}

/// Writes CMAF fragments of one track (ISO/IEC 23000-19, 7.3.2): a `moof` whose one `traf`
/// lists every sample's duration, size, flags and composition offset, then the `mdat` with
/// the samples' bytes. An LL-HLS part is one fragment; a segment is its parts one after the
/// other. The writer keeps its buffer from fragment to fragment: a caller that lets go of
/// one fragment's bytes before asking for the next makes no allocation.
public struct FragmentWriter {
    public let trackID: UInt32
    /// `mfhd`'s sequence number of the next fragment; fragments of a track count up from 1.
    public private(set) var sequenceNumber: UInt32 = 1
    private var writer = BoxWriter(capacity: 64 * 1024)

    public init(trackID: UInt32 = 1) { self.trackID = trackID }

    /// The fragment of `samples`, whose bytes are `payload` one after the other. Its decode
    /// time is the first sample's: a gap before it is a gap in the track.
    public mutating func fragment(_ samples: [FragmentSample], payload: UnsafeRawBufferPointer) -> [UInt8] {
        precondition(!samples.isEmpty, "a fragment holds at least one sample")
        precondition(samples.reduce(0) { $0 + Int($1.size) } == payload.count, "the samples' sizes add up to the payload")
        writer.removeAll()
        var dataOffsetAt = 0
        writer.box("moof") { moof in
            moof.fullBox("mfhd") { $0.u32(sequenceNumber) }
            moof.box("traf") { traf in
                // 0x020000: offsets count from this moof (default-base-is-moof), as CMAF requires.
                traf.fullBox("tfhd", flags: 0x02_0000) { $0.u32(trackID) }
                traf.fullBox("tfdt", version: 1) { $0.u64(samples[0].decodeTime) }
                // Data offset, then each sample's duration, size, flags, composition offset;
                // version 1: the offsets are signed.
                traf.fullBox("trun", version: 1, flags: 0x0001 | 0x0100 | 0x0200 | 0x0400 | 0x0800) { trun in
                    trun.u32(UInt32(samples.count))
                    dataOffsetAt = trun.count
                    trun.u32(0)
                    for sample in samples {
                        trun.u32(sample.duration)
                        trun.u32(sample.size)
                        trun.u32(Self.flags(sync: sample.isSync))
                        trun.i32(sample.compositionOffset)
                    }
                }
            }
        }
        writer.patch(u32: UInt32(writer.count + 8), at: dataOffsetAt)
        writer.u32(UInt32(8 + payload.count))
        writer.fourCC("mdat")
        writer.append(payload)
        sequenceNumber &+= 1
        return writer.bytes
    }

    /// Sample flags (14496-12, 8.8.3.1): a sync sample depends on no other; any other
    /// depends on others and is not a sync sample.
    static func flags(sync: Bool) -> UInt32 { sync ? 0x0200_0000 : 0x0101_0000 }
}
