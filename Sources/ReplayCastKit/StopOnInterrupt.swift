// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import ReplayCastSupport

extension Broadcast {
    /// For command-line tools: Ctrl-C (SIGINT) ends the broadcast the way a user at a
    /// terminal expects. The first stops it cleanly (`stop(timeout: nil)`: end-of-stream, so
    /// playlists and files are finished, however long that takes); another one, a second or
    /// more later, cancels it at once (`cancel()`, the broadcast ends `.cancelled`, outputs as
    /// they are). Interrupts within that second count as the first: a terminal's Ctrl-C often
    /// reaches the process twice at the same moment (also through a wrapper such as
    /// `timeout`). From this call until the process ends, SIGINT no longer ends the process.
    public func stopOnInterrupt() {
        Self.ignoreInterrupts()
        let firstInterrupt = Locked<ContinuousClock.Instant?>(nil)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [weak core] in
            guard let core else { return }
            let now = ContinuousClock.now
            let (first, again) = firstInterrupt.withLock { first in
                defer { first = first ?? now }
                return (first == nil, first.map { now - $0 >= .seconds(1) } ?? false)
            }
            if first { core.requestStop(within: nil) } else if again { core.requestCancel() }
        }
        source.resume()
        core.keep(source)
    }

    /// Once per process: the default action (ending the process) is off before the first
    /// source exists. Setting it again would replace the handler libdispatch installed for
    /// the sources, and every Ctrl-C after that would be lost: with two broadcasts, the
    /// second's call silenced the first's.
    private static let sigintIgnored: Void = { signal(SIGINT, SIG_IGN) }()

    package static func ignoreInterrupts() { _ = sigintIgnored }
}
