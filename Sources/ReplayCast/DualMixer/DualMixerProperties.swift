// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels

extension DualMixer {
    static let mixMode = EnumType("GstDualMixerMode", [
        .init(RC_MIX_SUM, "Sum, with a soft limiter above -1 dBFS so the sum never clips harshly or wraps", "sum"),
        .init(RC_MIX_AVERAGE, "Average of the inputs present: (app + mic) / 2", "average"),
    ])

    static let properties = PropertyTable(\RcDualMixer.settings, [
        .enumeration(\.mix_mode, "mix-mode", "Mix mode", "How app and mic audio combine", mixMode, default: RC_MIX_SUM,
                     .mutablePlaying),
        .boolean(\.post_levels, "post-levels", "Post levels",
                 "Post a 'dualmixer-levels' element message per level interval: rms and peak of app, mic and mix, "
                 + "and whether each input is active, silent or absent", default: false, .mutablePlaying),
        .uint64(\.output_buffer_duration, "output-buffer-duration", "Output buffer duration",
                "Duration of each output buffer in nanoseconds",
                Timebase.nanoseconds(.milliseconds(1))...Timebase.nanosecondsPerSecond,
                default: Timebase.nanoseconds(.milliseconds(10)), .mutableReady),
        .uint64(\.level_interval, "level-interval", "Level interval",
                "Interval of time between 'dualmixer-levels' messages in nanoseconds",
                Timebase.nanoseconds(.milliseconds(1))...UInt64.max, default: Timebase.nanoseconds(.milliseconds(100)),
                .mutablePlaying),
    ])

    /// audiomixer's pad properties.
    static let padProperties = PropertyTable(\RcDualMixerPad.settings, [
        .double(\.volume, "volume", "Volume", "Volume of this pad", 0...10, default: 1, .controllable),
        .boolean(\.mute, "mute", "Mute", "Mute this pad", default: false, .controllable),
    ])
}

@_cdecl("rc_dualmixer_properties")
func dualMixerProperties() -> UnsafeRawPointer { DualMixer.properties.opaque }

@_cdecl("rc_dualmixer_pad_properties")
func dualMixerPadProperties() -> UnsafeRawPointer { DualMixer.padProperties.opaque }
