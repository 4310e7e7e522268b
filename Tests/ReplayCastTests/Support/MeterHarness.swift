// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import MediaKernels

/// Pushes a signal through a metering element (volumemeter or level) in a harness, in
/// buffers of `framesPerBuffer`, then EOS; returns the element's messages. `caps` replaces
/// the caps made from format, rate and channels (to add a channel-mask, say).
func meterMessages(_ description: String, samples: [Double], format: SampleFormat, rate: Int, channels: Int,
                   framesPerBuffer: Int, flags: GstBufferFlags? = nil, caps: String? = nil) -> [Fields] {
    let harness = Harness(description, caps: caps
                          ?? "audio/x-raw,format=\(Signals.capsName(format)),layout=interleaved,rate=\(rate),channels=\(channels)")
    let bytes = Signals.encode(samples, as: format)
    let bytesPerFrame = format.bytesPerSample * channels
    let frames = samples.count / channels
    var messages: [Fields] = []
    var frame = 0
    while frame < frames {
        let count = min(framesPerBuffer, frames - frame)
        let chunk = Array(bytes[(frame * bytesPerFrame)..<((frame + count) * bytesPerFrame)])
        let pts = UInt64(frame) * 1_000_000_000 / UInt64(rate)
        harness.push(chunk, pts: pts, flags: flags)
        harness.discardOutput()
        frame += count
        messages += harness.messages()
    }
    harness.pushEOS()
    messages += harness.messages()
    return messages.filter { $0.name == "volumemeter" || $0.name == "level" }
}
