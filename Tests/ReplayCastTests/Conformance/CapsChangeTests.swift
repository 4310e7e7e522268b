// SPDX-License-Identifier: LGPL-2.1-or-later
import Testing

/// New caps between two buffers, as a device switching its audio route or a screen turning
/// does: the element follows them from the next buffer on, as GStreamer's own peer does.
/// Each element's cases extend this suite from its own test folder
/// (`<Element>/<Element>ConformanceCases.swift`).
@Suite struct CapsChangeTests {}
