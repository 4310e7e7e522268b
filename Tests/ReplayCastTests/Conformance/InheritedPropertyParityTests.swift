// SPDX-License-Identifier: LGPL-2.1-or-later
import Testing

/// Every property an element inherits keeps the meaning its base class documents: each case
/// sets one on our element and on its upstream peer (compositor, audiomixer) in the same
/// pipeline, on the same inputs, and compares what the property changes. Live cases are in
/// InheritedPropertyParityLiveTests; our own timing rules (pipcompositor's start-with-main
/// and end-with-main) are compared where they are off.
/// Each element's cases extend this suite from its own test folder
/// (`<Element>/<Element>ConformanceCases.swift`).
@Suite struct InheritedPropertyParityTests {}
