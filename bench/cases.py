"""Benchmark cases: our element, its GStreamer C peer, and a baseline with the same source
and sink around `identity`, so that (pipeline - baseline) is the element's own cost.
Pipelines are format strings: {n} is the number of buffers."""

# 10 ms buffers of 48 kHz stereo S16LE; a square wave is not silence (audiotestsrc marks
# silence as GAP and level skips it) and costs the source far less than a sine, which keeps
# the baseline small and the differences readable.
AUDIO_48K_STEREO = ("audiotestsrc wave=square volume=0.5 samplesperbuffer=480 num-buffers={n} "
                    "! audio/x-raw,format=S16LE,rate=48000,channels=2")

CASES = [
    {
        "name": "volumemeter",
        "what": "volumemeter vs level, 48 kHz stereo S16LE, 10 ms buffers, interval 100 ms, messages on",
        "ours": AUDIO_48K_STEREO + " ! volumemeter interval=100000000 post-messages=true ! fakesink sync=false",
        "peer": AUDIO_48K_STEREO + " ! level interval=100000000 post-messages=true ! fakesink sync=false",
        "baseline": AUDIO_48K_STEREO + " ! identity ! fakesink sync=false",
        "buffers": 60000,          # 10 minutes of audio
        "callgrind_buffers": 6000,  # 1 minute, and twice that for the marginal cost
        "target": 2.0,
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
]
