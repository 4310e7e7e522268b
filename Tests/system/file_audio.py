# SPDX-License-Identifier: LGPL-2.1-or-later
"""replaykitsrc app-location and mic-location with files other tools made: music-like AAC
from ffmpeg for the app, espeak-ng speech for the mic. What the pads carry (read by a Python
gi pipeline) must correlate at 0.99 or better with the same file converted by ffmpeg to the
stream's format, for the app (44.1 kHz stereo S16BE) and for the mic before and after it
switches to 24 kHz (AirPods) at 3 s; file-end=finish ends the broadcast where the file ends;
a missing file is an error naming the property and the path.
    file_audio.py"""
import array
import math
import os
import subprocess
import sys
import tempfile

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402
from checks import check, failures  # noqa: E402


folder = tempfile.mkdtemp(prefix="replaycast-files-")
music = os.path.join(folder, "music.m4a")
speech = os.path.join(folder, "speech.wav")
subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                "aevalsrc=0.3*sin(2*PI*220*t)+0.2*sin(2*PI*277*t)*sin(2*PI*0.5*t)|"
                "0.3*sin(2*PI*330*t)+0.2*sin(2*PI*415*t)*sin(2*PI*0.7*t):s=48000:d=8",
                "-c:a", "aac", "-b:a", "192k", music], check=True)
subprocess.run(["espeak-ng", "-w", speech, "This is the microphone of an emulated broadcast, read from a file. "
                "One, two, three, four, five, six, seven."], check=True)


def reference(path, rate, channels, sample_format):
    """The file as ffmpeg converts it: a list of ints, interleaved."""
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-ar", str(rate), "-ac", str(channels), "-f", sample_format, "-"],
                         capture_output=True, check=True).stdout
    samples = array.array("h", raw)
    if sample_format == "s16be" and sys.byteorder == "little":
        samples.byteswap()
    return samples


def broadcast(properties):
    """Runs replaykitsrc non-live; returns the app and mic pads' buffers (pts, bytes, caps), the
    finished message's broadcast time and the error, if any."""
    Gst.init(None)
    pipeline = Gst.parse_launch(f"replaykitsrc is-live=false {properties} name=rk rk.video ! fakesink "
                                "rk.audio_app ! fakesink name=app rk.audio_mic ! fakesink name=mic")
    buffers = {"app": [], "mic": []}

    def note(pad, info, name):
        buffer = info.get_buffer()
        caps = pad.get_current_caps().get_structure(0)
        buffers[name].append((buffer.pts, buffer.extract_dup(0, buffer.get_size()), caps.get_int("rate")[1]))
        return Gst.PadProbeReturn.OK

    for name in buffers:
        pipeline.get_by_name(name).get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, note, name)
    pipeline.set_state(Gst.State.PLAYING)
    bus = pipeline.get_bus()
    finished, error = None, None
    while True:
        message = bus.timed_pop_filtered(60 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR | Gst.MessageType.ELEMENT)
        if message is None:
            error = "timed out"
            break
        if message.type == Gst.MessageType.ERROR:
            error = message.parse_error()[0].message
            break
        if message.type == Gst.MessageType.EOS:
            break
        structure = message.get_structure()
        if structure.get_name() == "replaykit-broadcast-finished":
            finished = structure.get_value("broadcast-time")
    pipeline.set_state(Gst.State.NULL)
    return buffers, finished, error


def samples_of(buffers, big_endian, rate=None):
    out = array.array("h")
    for _, data, buffer_rate in buffers:
        if rate is None or buffer_rate == rate:
            out.frombytes(data)
    if big_endian and sys.byteorder == "little":
        out.byteswap()
    return out


def correlation(ours, theirs, channels, max_lag=16):
    """The best Pearson correlation over lags of up to max_lag frames, and that lag."""
    def pearson(a, b):
        n = min(len(a), len(b))
        a, b = a[:n], b[:n]
        ma, mb = sum(a) / n, sum(b) / n
        num = sum((x - ma) * (y - mb) for x, y in zip(a, b))
        den = math.sqrt(sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b))
        return num / den if den else 0.0
    window = 8192 * channels
    best = max(range(-max_lag, max_lag + 1),
               key=lambda lag: pearson(ours[max(0, lag * channels):][:window], theirs[max(0, -lag * channels):][:window]))
    return pearson(ours[max(0, best * channels):], theirs[max(0, -best * channels):]), best


buffers, finished, error = broadcast(f"duration=6000000000 app-location={music} mic-location={speech} "
                                     "schedule=\"3s:mic-format=24000\"")
check("6 s with both files: no error, finished at 6 s", error is None and finished == 6_000_000_000, f"{error} {finished}")
app = samples_of(buffers["app"], big_endian=True)
r, lag = correlation(app, reference(music, 44100, 2, "s16be"), 2)
check("app audio (44.1 kHz stereo S16BE) against ffmpeg's conversion of the AAC file: correlation >= 0.99", r >= 0.99,
      f"{r:.5f} at lag {lag} frames over {len(app) // 2} frames")
mic48 = samples_of(buffers["mic"], big_endian=False, rate=48000)
r, lag = correlation(mic48, reference(speech, 48000, 1, "s16le"), 1)
check("mic audio before the switch (48 kHz) against ffmpeg's conversion of espeak-ng's speech: correlation >= 0.99",
      r >= 0.99, f"{r:.5f} at lag {lag} frames over {len(mic48)} frames")
mic24 = samples_of(buffers["mic"], big_endian=False, rate=24000)
first24 = next(pts for pts, _, rate in buffers["mic"] if rate == 24000)
r, lag = correlation(mic24, reference(speech, 24000, 1, "s16le")[round(first24 * 24000 / 1e9):], 1)
check("mic audio after the switch to 24 kHz (from the first 1024-frame callback at 3 s) continues the file where "
      "the broadcast is: correlation >= 0.99", r >= 0.99 and 3_000_000_000 <= first24 < 3_000_000_000 + 1024 * 10**9 // 48000,
      f"{r:.5f} at lag {lag} frames over {len(mic24)} frames, first at {first24} ns")

with open(speech, "rb") as wav:
    header = wav.read(44)
rate, data_bytes = int.from_bytes(header[24:28], "little"), int.from_bytes(header[40:44], "little")
length = data_bytes // 2 * 10**9 // rate
buffers, finished, error = broadcast(f"app-location={speech} file-end=finish")
last = buffers["app"][-1]
end = last[0] + len(last[1]) // 4 * 1_000_000_000 // 44100
check("file-end=finish: the broadcast finishes where the file ends (within 1 ms), its last app buffer with it",
      error is None and finished is not None and abs(finished - length) < 1_000_000 and abs(end - finished) < 30_000,
      f"{error}; the file lasts {length} ns, finished at {finished}, last app buffer ends at {end} ns")

missing = os.path.join(folder, "none.m4a")
_, _, error = broadcast(f"mic-location={missing}")
check("a missing file: an error naming the property and the path", error is not None and f"mic-location {missing}: " in error,
      str(error))
sys.exit(1 if failures else 0)
