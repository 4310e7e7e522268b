// swift-tools-version:6.0
// SPDX-License-Identifier: LGPL-2.1-or-later
import PackageDescription

// `--no-undefined` turns a missing @_cdecl symbol into a link error instead of a plugin that
// GStreamer silently blacklists. Sanitizer builds leave sanitizer symbols undefined on purpose,
// so REPLAYCAST_ALLOW_UNDEFINED=1 switches the check off for them. GNU ld and lld have the
// flag; Apple's linker does not (and refuses undefined symbols by default), so Linux only.
let strictLinking: [LinkerSetting] =
    Context.environment["REPLAYCAST_ALLOW_UNDEFINED"] == "1"
        ? [] : [.unsafeFlags(["-Xlinker", "--no-undefined"], .when(platforms: [.linux]))]

// MediaKernelsAVX2 holds copies of the hottest loops built for AVX2 + FMA (Haswell, 2013, and
// later); MediaKernels checks the CPU at run time and uses them only where they can run. Like
// MediaKernels it is optimized in debug builds too (see there).
#if arch(x86_64)
let avx2Settings: [SwiftSetting] = [.unsafeFlags(["-O", "-target-cpu", "haswell"]), .define("KERNELS_FMA")]
#else
let avx2Settings: [SwiftSetting] = [.unsafeFlags(["-O"]), .define("KERNELS_FMA")]
#endif

let package = Package(
    name: "ReplayCast",
    products: [
        // GStreamer derives the plugin name from the file name: libgstreplaycast.so -> "replaycast".
        .library(name: "gstreplaycast", type: .dynamic, targets: ["ReplayCast"]),
        .executable(name: "replaycast", targets: ["ReplayCastCLI"]),
        // For apps: typed events and controls over a broadcast pipeline, elements registered in-process.
        .library(name: "ReplayCastKit", targets: ["ReplayCastKit"]),
        // For test harnesses and load tools: swarms, uplink shaping, latency and sync checks, traces.
        .library(name: "ReplayCastTools", targets: ["ReplayCastTools"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CGStreamer", pkgConfig: "gstreamer-video-1.0",
                       providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]),
        .systemLibrary(name: "CGstCheck", pkgConfig: "gstreamer-check-1.0",
                       providers: [.apt(["libgstreamer1.0-dev"])]),
        // No umbrella header: Swift sees every header of include/, so a new element's header
        // needs no line anywhere else.
        .target(
            name: "CReplayCast",
            dependencies: ["CGStreamer"],
            cSettings: [.unsafeFlags(["-fvisibility=hidden", "-Wall", "-Wextra", "-Wno-unused-parameter", "-Werror"])]),
        .target(name: "CCPUFeatures"),
        .target(name: "MediaKernelsAVX2", swiftSettings: avx2Settings),
        // The kernels are optimized in debug builds too: the tests feed them minutes of audio
        // (EBU conformance signals), which unoptimized SIMD code takes 50 times longer over.
        .target(name: "MediaKernels", dependencies: ["MediaKernelsAVX2", "CCPUFeatures"],
                swiftSettings: [.unsafeFlags(["-O"])]),
        // CMAF and Low-Latency HLS without GStreamer: init segments, fragments, where parts and
        // segments end, media playlists, files written whole.
        .target(name: "HLSPackaging"),
        // The ReplayKit emulator's domain: device profiles, schedule, programmes, screen, barcode.
        .target(name: "ReplayKitModel", dependencies: ["MediaKernels"]),
        // What the plugin and the Kit share beside the C shim: a lock, GObject property and
        // bin reads, pad probes, mapped buffers, publish locations. Nothing here is public API.
        .target(name: "ReplayCastSupport", dependencies: ["CReplayCast", "CGStreamer"]),
        .target(
            name: "ReplayCast",
            dependencies: ["CReplayCast", "CGStreamer", "MediaKernels", "ReplayCastSupport", "ReplayKitModel", "HLSPackaging"],
            linkerSettings: strictLinking),
        // What applications need beside the elements: the GOutputStream hlssink2's playlists go through.
        .target(name: "CReplayCastKit", dependencies: ["CGStreamer"]),
        // Depends on ReplayCast without importing it: the elements' @_cdecl exports that
        // replaycast_init() registers are linked in from there.
        .target(name: "ReplayCastKit",
                dependencies: ["ReplayCast", "ReplayCastSupport", "CReplayCast", "CReplayCastKit", "CGStreamer", "MediaKernels",
                               "ReplayKitModel", "HLSPackaging"]),
        // The rehearsal tooling the CLI runs around broadcasts: swarms, uplink shaping (tc and a
        // relay), latency and sync readings at the far end, traces. Apps that embed a broadcast
        // link the Kit without it.
        .target(name: "ReplayCastTools",
                dependencies: ["ReplayCastKit", "ReplayCastSupport", "CReplayCast", "CGStreamer", "MediaKernels", "ReplayKitModel"]),
        .executableTarget(name: "BroadcastEventsExample", dependencies: ["ReplayCastKit"], path: "examples/swift/BroadcastEvents"),
        .executableTarget(
            name: "ReplayCastCLI",
            dependencies: ["ReplayCastKit", "ReplayCastTools", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // Costs of the kernels alone, printed by bench/kernels (release build).
        .executableTarget(name: "KernelBench", dependencies: ["MediaKernels", "MediaKernelsAVX2", "ReplayKitModel"], path: "bench/KernelBench"),
        // The resampler's quality measurements, for its tests and its printed table.
        .target(name: "ResamplerMeasurement", dependencies: ["MediaKernels"], path: "Tests/ResamplerMeasurement"),
        .executableTarget(name: "ResamplerQualityReport", dependencies: ["MediaKernels", "ResamplerMeasurement"],
                          path: "bench/ResamplerQualityReport"),
        .testTarget(name: "MediaKernelsTests", dependencies: ["MediaKernels", "ResamplerMeasurement"]),
        .testTarget(name: "HLSPackagingTests", dependencies: ["HLSPackaging"]),
        .testTarget(name: "ReplayKitModelTests", dependencies: ["ReplayKitModel", "MediaKernels"]),
        .target(name: "CTestSupport", dependencies: ["CGStreamer"], path: "Tests/CTestSupport"),
        .testTarget(name: "ReplayCastTests",
                    dependencies: ["ReplayCast", "ReplayCastKit", "ReplayCastSupport", "ReplayCastTools", "CReplayCast", "CReplayCastKit", "CGStreamer", "CGstCheck", "CTestSupport",
                                   "MediaKernels", "ReplayKitModel", "HLSPackaging"]),
    ],
    swiftLanguageModes: [.v6]
)
