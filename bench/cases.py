# SPDX-License-Identifier: LGPL-2.1-or-later
"""Benchmark cases: our element, its GStreamer C peer, and a baseline with the same source
and sink around `identity`, so that (pipeline - baseline) is the element's own cost.
Pipelines are format strings: {n} is the number of buffers."""

# 10 ms buffers of 48 kHz stereo S16LE; a square wave is not silence (audiotestsrc marks
# silence as GAP and level skips it) and costs the source far less than a sine, which keeps
# the baseline small and the differences readable.
AUDIO_48K_STEREO = ("audiotestsrc wave=square volume=0.5 samplesperbuffer=480 num-buffers={n} "
                    "! audio/x-raw,format=S16LE,rate=48000,channels=2")

# The same audio for ffmpeg: a 48 kHz sine in 480-sample frames made stereo; {meter} is
# appended to the filter chain.
FFMPEG_48K_STEREO = ("ffmpeg -nostdin -hide_banner -loglevel error -filter_complex "
                     "'sine=frequency=440:sample_rate=48000:samples_per_frame=480:duration={seconds},"
                     "pan=stereo|c0=c0|c1=c0{meter}' -f null -")

# 10 minutes of ReplayKit-like audio: app 44.1 kHz stereo, mic 32 kHz mono, 10 ms buffers.
APP_441 = ("audiotestsrc wave=square volume=0.4 samplesperbuffer=441 num-buffers={n} "
           "! audio/x-raw,format=S16LE,rate=44100,channels=2")
MIC_32 = ("audiotestsrc wave=square freq=440 volume=0.2 samplesperbuffer=320 num-buffers={n} "
          "! audio/x-raw,format=S16LE,rate=32000,channels=1")

# 1080p NV12 screen and a 480x270 NV12 camera, colorimetry stated on every input (compositor
# converts every frame when inputs disagree) and cheap sources (black and a solid colour cost
# videotestsrc next to nothing per frame, so the time measured is the mixer's, not the source's).
SCREEN_1080P = ("videotestsrc pattern=black num-buffers={n} "
                "! video/x-raw,format=NV12,width=1920,height=1080,framerate=30/1,colorimetry=bt709")
CAMERA_270P = ("videotestsrc pattern=solid-color foreground-color=0xff3366cc num-buffers={n} "
               "! video/x-raw,format=NV12,width=480,height=270,framerate=30/1,colorimetry=bt709")
OUT_1080P = "video/x-raw,format=NV12,width=1920,height=1080,colorimetry=bt709"

# A 320x240 H.264 stream that costs little to make (black, one encoder thread, ultrafast),
# so the baseline stays small beside the publishing measured.
H264_240P = ("videotestsrc pattern=black num-buffers={n} ! video/x-raw,width=320,height=240,framerate=30/1 "
             "! x264enc threads=1 speed-preset=ultrafast tune=zerolatency key-int-max=30 ! h264parse")

# The same, paced by the clock.
H264_240P_LIVE = H264_240P.replace("videotestsrc pattern=black", "videotestsrc is-live=true pattern=black")

# What the HLS sinks are measured on, recorded once per buffer count ({file}) so that no
# encoder runs in the measured pipelines: {n} frames of the broadcast's 720x1558 picture at
# 2.5 Mb/s (snow: the encoder spends the whole rate) and AAC in 1600-sample buffers, one per
# frame at 30 fps.
BROADCAST_RECORDING = ("videotestsrc pattern=snow num-buffers={n} ! video/x-raw,width=720,height=1558,framerate=30/1 "
                       "! x264enc speed-preset=ultrafast tune=zerolatency key-int-max=30 bitrate=2500 ! h264parse "
                       "! queue ! mux. audiotestsrc wave=square volume=0.5 samplesperbuffer=1600 num-buffers={n} "
                       "! audio/x-raw,rate=48000,channels=2 ! avenc_aac ! aacparse ! queue ! mux. "
                       "matroskamux name=mux ! filesink location={file}")
# The recording's two streams, each through its parser into {video} and {audio}.
RECORDED = ("filesrc location={{media}} ! matroskademux name=d d.video_0 ! queue ! h264parse ! {video} "
            "d.audio_0 ! queue ! aacparse ! {audio}")
LLHLSSINK = "llhlssink name=ll location={out}/ll target-duration=1 playlist-length=0"
HLSSINK2 = ("hlssink2 name={name} target-duration=1 playlist-length=0 max-files=0 "
            "location={out}/{name}-%05d.ts playlist-location={out}/{name}.m3u8")

CASES = [
    {
        "name": "volumemeter",
        "what": "volumemeter vs level, 48 kHz stereo S16LE, 10 ms buffers, interval 100 ms, messages on",
        "ours": AUDIO_48K_STEREO + " ! volumemeter interval=100000000 post-messages=true ! fakesink sync=false",
        "peer": AUDIO_48K_STEREO + " ! level interval=100000000 post-messages=true ! fakesink sync=false",
        "baseline": AUDIO_48K_STEREO + " ! identity ! fakesink sync=false",
        "buffers": 60000,          # 10 minutes of audio
        "callgrind_buffers": 6000,  # 1 minute, and twice that for the marginal cost
        "target": 4.0,
    },
    {
        "name": "volumemeter-loudness",
        "what": "volumemeter loudness=true (EBU R128 + true peak) vs level, same input",
        "ours": AUDIO_48K_STEREO + " ! volumemeter loudness=true interval=100000000 ! fakesink sync=false",
        "peer": AUDIO_48K_STEREO + " ! level interval=100000000 post-messages=true ! fakesink sync=false",
        "baseline": AUDIO_48K_STEREO + " ! identity ! fakesink sync=false",
        "buffers": 60000,
        "callgrind_buffers": 3000,
        "target": None,
    },
    {
        "name": "volumemeter-ebur128",
        "what": "volumemeter loudness=true vs ffmpeg's ebur128 filter with peak=true (K-weighting, gating, LRA, 4x true "
                "peak), 48 kHz stereo in 10 ms frames; each against its own chain without the meter",
        "ours": AUDIO_48K_STEREO + " ! volumemeter loudness=true interval=100000000 ! fakesink sync=false",
        "baseline": AUDIO_48K_STEREO + " ! identity ! fakesink sync=false",
        "peer": {"argv": lambda n: FFMPEG_48K_STEREO.format(seconds=n / 100, meter=",ebur128=peak=true")},
        "peer_baseline": {"argv": lambda n: FFMPEG_48K_STEREO.format(seconds=n / 100, meter="")},
        "buffers": 60000,
        "callgrind_buffers": 3000,
        "target": 10.0,
    },
    {
        "name": "dualmixer",
        "what": "dualmixer vs audioconvert ! audioresample ! audiomixer: 44.1 kHz stereo + 32 kHz mono -> 48 kHz stereo",
        "ours": f"{APP_441} ! m.app {MIC_32} ! m.mic dualmixer name=m ! fakesink sync=false",
        "peer": (f"{APP_441} ! audioconvert ! audioresample ! audio/x-raw,rate=48000,channels=2 ! m. "
                 f"{MIC_32} ! audioconvert ! audioresample ! audio/x-raw,rate=48000,channels=2 ! m. "
                 "audiomixer name=m ! audio/x-raw,format=S16LE,rate=48000,channels=2 ! fakesink sync=false"),
        "baseline": f"{APP_441} ! fakesink sync=false {MIC_32} ! fakesink sync=false",
        "buffers": 60000,
        "callgrind_buffers": 1000,
        "target": 3.0,
        "note": ["python3", "bench/resampler_quality.py"],
    },
    {
        "name": "replaykitsrc",
        "what": ("replaykitsrc (iphone-11-ios17: 1242x2688 NV12 + 44.1 kHz stereo + 48 kHz mono) vs videotestsrc "
                 "pattern=smpte + two audiotestsrc with the same formats and buffer sizes, non-live, n video frames"),
        "ours": lambda n: (f"replaykitsrc is-live=false num-frames={n} name=rk rk.video ! fakesink sync=false "
                           "rk.audio_app ! fakesink sync=false rk.audio_mic ! fakesink sync=false"),
        "peer": lambda n: (f"videotestsrc pattern=smpte num-buffers={n} "
                           "! video/x-raw,format=NV12,width=1242,height=2688,framerate=30/1 ! fakesink sync=false "
                           f"audiotestsrc samplesperbuffer=1024 num-buffers={n * 44100 // 30 // 1024} "
                           "! audio/x-raw,format=S16BE,rate=44100,channels=2 ! fakesink sync=false "
                           f"audiotestsrc samplesperbuffer=1024 num-buffers={n * 48000 // 30 // 1024} "
                           "! audio/x-raw,format=S16LE,rate=48000,channels=1 ! fakesink sync=false"),
        "baseline": lambda n: (f"fakesrc num-buffers={n} ! fakesink sync=false "
                               f"fakesrc num-buffers={n * 44100 // 30 // 1024} ! fakesink sync=false "
                               f"fakesrc num-buffers={n * 48000 // 30 // 1024} ! fakesink sync=false"),
        "buffers": 900,            # 30 s of broadcast
        "callgrind_buffers": 30,
        "target": 1.0,             # no more costly per frame than videotestsrc pattern=smpte
        "note": ["python3", "bench/live_cpu.py"],
    },
    {
        "name": "pipcompositor",
        "what": "pipcompositor vs compositor, 1080p NV12 screen + 480x270 NV12 PiP at (1380, 60), same colorimetry",
        "ours": (SCREEN_1080P + " ! pipcompositor name=c sink_1::xpos=1380 sink_1::ypos=60 ! " + OUT_1080P
                 + " ! fakesink sync=false " + CAMERA_270P + " ! c."),
        "peer": (SCREEN_1080P + " ! compositor name=c background=black sink_1::xpos=1380 sink_1::ypos=60 ! " + OUT_1080P
                 + " ! fakesink sync=false " + CAMERA_270P + " ! c."),
        "baseline": SCREEN_1080P + " ! fakesink sync=false " + CAMERA_270P + " ! fakesink sync=false",
        "buffers": 900,            # 30 s of video
        "callgrind_buffers": 30,
        "target": 5.0,
        "note": ["python3", "bench/frame_copy.py", "1920", "1080"],
    },
    {
        "name": "rtmpreconnectsink",
        "what": ("rtmpreconnectsink vs queue ! flvmux ! rtmp2sink (what it publishes through, its queue included), "
                 "320x240 H.264 to nginx-rtmp on 127.0.0.1; while-disconnected=keep, so what arrives before the "
                 "connection is sent too"),
        "server": "rtmp",
        "ours": (H264_240P + " ! rtmpreconnectsink location={url}/ours while-disconnected=keep "
                 "buffer-duration=3600000000000"),
        "peer": (H264_240P + " ! queue max-size-buffers=0 max-size-bytes=0 max-size-time=5000000000 "
                 "! flvmux streamable=true ! rtmp2sink location={url}/peer sync=false async=false"),
        "baseline": H264_240P + " ! fakesink sync=false",
        "buffers": 9000,           # 5 minutes of video
        "callgrind_buffers": None,
        "no_callgrind": "under valgrind the whole stream ends before the connection is made, so the count would be "
                        "of keeping it all and sending it at the end, not of streaming",
        "target": None,            # its peer is what it publishes through: the ratio is its overhead
    },
    {
        # SRT's live mode drops what is too late for its latency: given minutes of media at once
        # (as the RTMP case gives them), libsrt would drop most of it, so the source is live and
        # the measure is CPU time, not wall time.
        "name": "rtmpreconnectsink-srt",
        "what": ("rtmpreconnectsink publishing SRT vs queue ! mpegtsmux ! srtsink (what it publishes through, its "
                 "queue included), 320x240 H.264 in real time to srt-live-transmit on 127.0.0.1"),
        "server": "srt",
        "live": True,
        "ours": H264_240P_LIVE + " ! rtmpreconnectsink location={url}",
        "peer": (H264_240P_LIVE + " ! queue max-size-buffers=0 max-size-bytes=0 max-size-time=5000000000 "
                 "! mpegtsmux alignment=7 ! srtsink uri={url} sync=false async=false"),
        "baseline": H264_240P_LIVE + " ! fakesink sync=false",
        "buffers": 600,            # 20 s of video
        "callgrind_buffers": None,
        "no_callgrind": "a live source: instructions would count the waiting for the clock",
        "target": None,
    },
    {
        "name": "llhlssink",
        "what": ("llhlssink (CMAF parts of 0.3 s, 1 s segments, playlists rewritten at every part) vs hlssink2 "
                 "(MPEG-TS, 1 s segments): the broadcast's 720x1558 H.264 at 2.5 Mb/s and AAC, read from a "
                 "recording, written to a folder"),
        "folder": True,
        "media": BROADCAST_RECORDING,
        "ours": RECORDED.format(video="ll.video_0", audio="ll.audio") + " " + LLHLSSINK,
        "peer": RECORDED.format(video="hls.video", audio="hls.audio") + " " + HLSSINK2.replace("{name}", "hls"),
        "baseline": RECORDED.format(video="fakesink sync=false", audio="fakesink sync=false"),
        "playlists": {"ours": "{out}/ll/video_0/index.m3u8", "peer": "{out}/hls.m3u8"},
        "buffers": 900,            # 30 s of broadcast
        "callgrind_buffers": 150,
        # hlssink2 1.22 sometimes never ends, every thread idle at EOS (seen in 2 of 12 runs
        # of 900 buffers): such a run is killed and run again.
        "hang_after": 20,
        "target": None,
    },
    {
        "name": "llhlssink-ladder",
        "what": ("llhlssink with two video renditions (the same recording twice) and audio vs two hlssink2s, "
                 "each with that video and the audio: what a second rendition costs each"),
        "folder": True,
        "media": BROADCAST_RECORDING,
        "ours": (RECORDED.format(video="tee name=v v. ! queue ! ll.video_0 v. ! queue ! ll.video_1", audio="ll.audio")
                 + " " + LLHLSSINK),
        "peer": (RECORDED.format(video="tee name=v v. ! queue ! a.video v. ! queue ! b.video",
                                 audio="tee name=s s. ! queue ! a.audio s. ! queue ! b.audio")
                 + " " + HLSSINK2.replace("{name}", "a") + " " + HLSSINK2.replace("{name}", "b")),
        "baseline": RECORDED.format(video="tee name=v v. ! queue ! fakesink sync=false v. ! queue ! fakesink sync=false",
                                    audio="fakesink sync=false"),
        "playlists": {"ours, video_1": "{out}/ll/video_1/index.m3u8", "peer, b": "{out}/b.m3u8"},
        "buffers": 900,
        "callgrind_buffers": 150,
        "hang_after": 20,
        "target": None,
    },
]
