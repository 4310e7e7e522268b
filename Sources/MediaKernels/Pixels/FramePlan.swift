// SPDX-License-Identifier: LGPL-2.1-or-later

/// How a picture-in-picture compositor makes its next output frame, decided from what the
/// frame needs and what the compositor holds: no pixels are touched here.
///
/// When the main picture fills the output as it is (same format, size and colours, upright,
/// opaque, the whole frame), the output *is* the main picture and only the PiPs are drawn:
/// into the main buffer's own memory when it can be lent (`taken`); when that main picture
/// is shown again (the main input slower than the output, or late), into the held output
/// made of it, after putting back what the PiPs covered (`reuseHeld`), or into a copy of it
/// while downstream still holds it (`copyHeld`); otherwise into a copy of the main picture
/// (`copyMain`). Anything else is composed from scratch (`compose`).
public enum FramePlan: Equatable, Sendable, CustomStringConvertible {
    case taken, reuseHeld, copyHeld, copyMain, compose

    /// The last output made of a lent main buffer's memory.
    public enum Held: Equatable, Sendable {
        case none
        /// Only the compositor references it: it can be drawn into again.
        case onlyOurs
        /// Downstream holds it too (a queue, a sink's last sample).
        case shared
    }

    public struct Situation: Equatable, Sendable {
        /// The frame shows a main picture (the pad has a buffer that fits and could be set up).
        public var showsMain: Bool
        /// That main picture fills the output unchanged.
        public var fillsOutput: Bool
        /// Its buffer is the one whose memory an earlier output took: its pixels live only in
        /// the held output.
        public var alreadyTaken: Bool
        public var held: Held
        /// Its memory can become the output's (plain, writable, referenced by its pad alone,
        /// laid out as the output).
        public var lendable: Bool

        public init(showsMain: Bool, fillsOutput: Bool, alreadyTaken: Bool, held: Held, lendable: Bool) {
            self.showsMain = showsMain
            self.fillsOutput = fillsOutput
            self.alreadyTaken = alreadyTaken
            self.held = held
            self.lendable = lendable
        }
    }

    /// The plan, and whether the frame shows the main picture: a main picture already taken
    /// whose held output is gone cannot be shown (the frame shows the background there).
    public static func choose(_ s: Situation) -> (plan: FramePlan, showsMain: Bool) {
        guard s.showsMain else { return (.compose, false) }
        if s.alreadyTaken {
            switch s.held {
            case .none: return (.compose, false)
            case .onlyOurs: return (s.fillsOutput ? .reuseHeld : .compose, true)
            case .shared: return (s.fillsOutput ? .copyHeld : .compose, true)
            }
        }
        guard s.fillsOutput else { return (.compose, true) }
        return (s.lendable ? .taken : .copyMain, true)
    }

    /// The plans whose output holds the main picture's memory with the PiPs drawn in: kept
    /// as the held output, with what the PiPs cover saved.
    public var holdsMainMemory: Bool {
        switch self {
        case .taken, .reuseHeld, .copyHeld: true
        case .copyMain, .compose: false
        }
    }

    public var description: String {
        switch self {
        case .taken: "PiPs drawn into the main buffer itself"
        case .reuseHeld: "PiPs drawn into the held output again (main repeated)"
        case .copyHeld: "held output copied, PiPs drawn (main repeated, held output still in use)"
        case .copyMain: "main picture copied, PiPs drawn (its memory could not be taken)"
        case .compose: "composed: main picture converted or placed, then PiPs"
        }
    }
}
