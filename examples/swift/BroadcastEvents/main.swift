// SPDX-License-Identifier: LGPL-2.1-or-later
// Runs a broadcast from a pipeline file through ReplayCastKit and prints its typed events:
//
//   swift run BroadcastEventsExample [FILE] [SECONDS] [NAME=VALUE ...]
//
// FILE defaults to pipelines/meters.pipeline, SECONDS to 5. The broadcast is paused after
// one second and resumed a second later, then stopped cleanly (end of stream) at SECONDS.
import Foundation
import ReplayCastKit

func line(_ event: BroadcastEvent) -> String {
    func db(_ values: [Double]) -> String { values.map { String(format: "%.1f", $0) }.joined(separator: "/") }
    switch event {
    case .started(let setup): return "started: \(setup.device) \(setup.width)x\(setup.height)"
    case .paused(let moment): return "paused at \(moment.broadcastTime)"
    case .resumed(let moment): return "resumed at \(moment.broadcastTime)"
    case .finished(let moment): return "finished at \(moment.broadcastTime)"
    case .orientationChanged(let orientation, _): return "orientation: \(orientation)"
    case .micFormatChanged(let rate, let channels, _): return "mic: \(rate) Hz, \(channels.map(String.init) ?? "same") channels"
    case .changed(let action, _): return "changed: \(action)"
    case .meter(let m):
        let loudness = m.momentary.map { String(format: "  M %.1f LUFS", $0) } ?? ""
        return String(format: "%6.2f s %@ rms %@ dB peak %@ dB", m.runningTime.seconds, m.element, db(m.rms), db(m.peak)) + loudness
    case .mixerLevels(let levels): return "mixer: app \(levels.appState?.rawValue ?? "?"), mic \(levels.micState?.rawValue ?? "?")"
    case .segmentWritten(let segment): return "segment: \(segment.location)"
    case .rtmp(let rtmp): return "rtmp \(rtmp.location): \(rtmp.change)"
    case .warning(let issue): return "warning: \(issue)"
    case .error(let issue): return "error: \(issue)"
    case .endOfStream: return "end of stream"
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let file = arguments.first ?? "pipelines/meters.pipeline"
let seconds = arguments.count > 1 ? Double(arguments[1]) ?? 5 : 5
let variables = Dictionary(arguments.dropFirst(2).compactMap { text -> (String, String)? in
    guard let eq = text.firstIndex(of: "=") else { return nil }
    return (String(text[..<eq]), String(text[text.index(after: eq)...]))
}, uniquingKeysWith: { $1 })

do {
    let broadcast = try Broadcast(pipelineFile: file, variables: variables)
    try await broadcast.start()
    let driver = Task {
        try await Task.sleep(for: .seconds(1))
        try broadcast.pause()
        try await Task.sleep(for: .seconds(1))
        try broadcast.resume()
        try await Task.sleep(for: .seconds(max(0, seconds - 2)))
        try await broadcast.stop()
    }
    for await event in broadcast.events { print(line(event)) }
    driver.cancel()
    let ending = await broadcast.waitUntilEnded()
    print("ended: \(ending)")
    exit(ending == .endOfStream ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
