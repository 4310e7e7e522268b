// SPDX-License-Identifier: LGPL-2.1-or-later
/// An `hlssink2` of a broadcast: where its playlist and segments go, e.g. to serve them.
public struct HLSOutput: Sendable, Equatable {
    /// The element's name in the pipeline.
    public var element: String
    /// The playlist's path (`playlist-location`).
    public var playlist: String
    /// The segments' file name pattern (`location`, e.g. `out/hls/segment%05d.ts`).
    public var segments: String
}
