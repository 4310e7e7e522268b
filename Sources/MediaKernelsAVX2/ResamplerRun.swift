// SPDX-License-Identifier: LGPL-2.1-or-later
/// What one filtering call of `Resampler` reads and updates, handed to the loops in
/// `ResamplerLoops` (compiled for baseline x86-64 in MediaKernels and for AVX2 + FMA here).
package struct ResamplerRun {
    /// Position of the next output: whole input frame and phase numerator over phaseCount.
    package var frame: Int
    package var phase: Int
    package let taps: Int
    package let channels: Int
    package let planeCapacity: Int
    package let lookahead: Int
    package let stepFrames: Int
    package let stepPhase: Int
    package let phaseCount: Int
    /// History slot of an output's first tap = frame + slotOffset.
    package let slotOffset: Int
    package let history: UnsafePointer<Float>
    package let coefficients: UnsafePointer<Float>

    package init(frame: Int, phase: Int, taps: Int, channels: Int, planeCapacity: Int, lookahead: Int, stepFrames: Int,
                 stepPhase: Int, phaseCount: Int, slotOffset: Int, history: UnsafePointer<Float>,
                 coefficients: UnsafePointer<Float>) {
        self.frame = frame
        self.phase = phase
        self.taps = taps
        self.channels = channels
        self.planeCapacity = planeCapacity
        self.lookahead = lookahead
        self.stepFrames = stepFrames
        self.stepPhase = stepPhase
        self.phaseCount = phaseCount
        self.slotOffset = slotOffset
        self.history = history
        self.coefficients = coefficients
    }

    @inline(__always)
    package func advance(_ frame: inout Int, _ phase: inout Int) {
        frame &+= stepFrames
        phase &+= stepPhase
        if phase >= phaseCount {
            phase &-= phaseCount
            frame &+= 1
        }
    }
}
