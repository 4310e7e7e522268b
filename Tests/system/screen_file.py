# SPDX-License-Identifier: LGPL-2.1-or-later
"""replaykitsrc screen-location with a video file ffmpeg made: a 30 s H.264 MOV, 640x360,
variable frame rate (30, 24, about 29 and 19 fps, frames up to 2.5 s apart, and two
stretches of repeated, identical frames), lossless so that identical frames decode
identically, turned 90 degrees clockwise by its display matrix. Before the element runs, the
file itself is checked: ffprobe's display matrix says -90, GStreamer's qtdemux says
image-orientation rotate-90, ffmpeg's framemd5 gives the intended frame times, and GStreamer's
decodebin ! videoconvertscale (the element's conversion) changes the picture exactly where
ffmpeg's md5 does, at the same times. Then, read by a Python gi pipeline's pad probes:
- file-end=finish at width=360 height=640: one buffer per distinct frame (a frame differing
  from the one before it), each stamped with the first 1/30 s slot at or after the frame's
  time, all of them compared; the image-orientation tag rotate-90 before the first buffer;
  NV12 360x640 full-range caps; EOS with the last buffer ending within the file, and the
  broadcast finished at the file's duration;
- the picture below the barcode strip of four of those buffers (taken by their PTS: frames
  at 0.1, 8.5, 14.05 and 20.31 s of the file) against ffmpeg's own conversion of the same
  source frame (bilinear to 360x202, the size the element fits it to, then limited to full range): mean
  absolute luma difference below 3 at the best of rows 216 to 222, borders uniform and black;
- file-end=loop duration=40 s: the file's distinct frames, then from 30 s those before 10 s
  again at their time + the file's duration (count within 1 at the 40 s end, times exact);
- sync-marks=true: the frame at 1 s is white below the strip, the one at 1.1 s is not;
- a missing file, a text file named .mov and an audio-only file fail the start with an error
  naming screen-location and the path.
    screen_file.py"""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstVideo", "1.0")
from gi.repository import Gst, GstVideo  # noqa: E402
from checks import check, failures  # noqa: E402


def seconds(ns):
    return f"{ns / 1e9:.6f} s"


Gst.init(None)
folder = tempfile.mkdtemp(prefix="replaycast-screen-")
W, H = 360, 640           # the screen of every run: small, so that the runs are fast
STRIP = W // 32           # the barcode strip's rows
TICKS = 90000             # the file's time scale: 1/30 s, 1/24 s and whole ms are whole ticks

# The file's frames, as (time in ticks, new picture?). Every interval is 1/30 s or more, so that
# no two frames fall into the same 1/30 s slot of the broadcast.
schedule = []


def stretch(start, end, step, still=False):
    """Frames every step ticks in [start, end); a still stretch repeats its first picture."""
    for number, ticks in enumerate(range(start, end, step)):
        schedule.append((ticks, number == 0 or not still))


stretch(0, 5 * TICKS, 3000)                                # 30 fps, every frame new
stretch(5 * TICKS, 8 * TICKS, 3000, still=True)            # 3 s still: 90 identical frames at 30 fps
stretch(8 * TICKS, 12 * TICKS, 3750)                       # 24 fps: times between the slots
for time in (12.0, 12.5, 13.8, 14.05, 14.12, 15.0, 17.0, 17.04, 19.5):
    schedule.append((round(time * TICKS), True))           # sparse: frames up to 2.5 s apart
stretch(20 * TICKS, 22 * TICKS, 3100)                      # ~29 fps: drifts across the slots
stretch(schedule[-1][0] + 4700, 25 * TICKS - 3000, 4700)   # ~19 fps
stretch(25 * TICKS, 27 * TICKS, 6000, still=True)          # 2 s still at 15 fps
stretch(27 * TICKS, 28 * TICKS, 3000)
stretch(28 * TICKS, 30 * TICKS, 6000, still=True)          # still to the end,
schedule.append((30 * TICKS - 3000, False))                # whose last frame lasts 1/30 s: 30 s
assert all(b[0] - a[0] >= 3000 for a, b in zip(schedule, schedule[1:]))


def make_video(path):
    """Encodes the schedule: testsrc2's frames (each different from the one before) as raw
    YUV, written to ffmpeg in the schedule's order (a still stretch writes the same frame
    again), retimed by one setpts expression. (ffmpeg's loop filter would repeat frames too,
    but in 5.1 it repeats the frame before its start.) Lossless x264 (-qp 0), no B-frames: a
    repeated frame decodes to the same bytes as the frame it repeats, so ffmpeg's md5 and the
    element's comparison agree on which frames are new. BT.709 limited range is written in the
    stream, so that every reader converts from the same. Then the 90 degree clockwise display
    matrix is added by remuxing; returns how."""
    new = sum(1 for _, is_new in schedule if is_new)
    unique = os.path.join(folder, "unique.yuv")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-frames:v", str(new),
                    "-vf", "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p", "-f", "rawvideo", unique], check=True)
    runs, first = [], 0                  # (first frame, end, first ticks, step) of each regular run
    while first < len(schedule):
        step = schedule[first + 1][0] - schedule[first][0] if first + 1 < len(schedule) else 3000
        end = first + 1
        while end < len(schedule) and schedule[end][0] - schedule[end - 1][0] == step:
            end += 1
        runs.append((first, end, schedule[first][0], step))
        first = end
    expression = "0"
    for first, end, ticks, step in reversed(runs):
        expression = f"if(lt(N\\,{end})\\,{ticks}+(N-{first})*{step}\\,{expression})"
    plain = os.path.join(folder, "plain.mov")
    # -enc_time_base: without it ffmpeg's encoder counts in 1/30 s (the frame rate) and rounds
    # every time to it.
    encoder = subprocess.Popen(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-video_size", "640x360",
                                "-framerate", "30", "-color_range", "tv", "-colorspace", "bt709", "-i", "-",
                                "-vf", f"settb=1/90000,setpts={expression}", "-fps_mode", "passthrough", "-enc_time_base", "1:90000",
                                "-c:v", "libx264", "-qp", "0", "-bf", "0", "-preset", "ultrafast",
                                "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv",
                                "-video_track_timescale", "90000", "-movie_timescale", "90000", plain], stdin=subprocess.PIPE)
    frame_size, picture = 640 * 360 * 3 // 2, -1
    with open(unique, "rb") as pictures:
        for _, is_new in schedule:
            picture += is_new
            pictures.seek(picture * frame_size)
            encoder.stdin.write(pictures.read(frame_size))
    encoder.stdin.close()
    if encoder.wait() != 0:
        return None
    os.remove(unique)
    # The display matrix, by stream copy. Which option writes a clockwise 90 changed between
    # ffmpeg releases, so each way is tried and the first that ffprobe reads back as -90
    # (displayed turned 90 degrees clockwise) is kept:
    # - ffmpeg 7.1 (trixie) and 9.0 (sid): -display_rotation, an input option in degrees
    #   counter-clockwise: -90 (or 270). There -metadata:s:v rotate= writes no matrix at all.
    # - ffmpeg 5.1 (bookworm): no -display_rotation, and rotate=90 writes a counter-clockwise
    #   matrix (ffprobe 90, GStreamer rotate-270): rotate=270 is the clockwise one.
    # - older releases read rotate=90 as clockwise (iPhone files carry that tag).
    # setts gives the last frame its 1/30 s in every release (7.1 wrote it without a duration,
    # and GStreamer then read 30.021 s).
    ways = [(["-display_rotation", "-90"], []), ([], ["-metadata:s:v", "rotate=90"]), ([], ["-metadata:s:v", "rotate=270"])]
    for before, after in ways:
        made = subprocess.run(["ffmpeg", "-v", "error", "-y", *before, "-i", plain, "-map", "0:v", "-c", "copy", *after,
                               "-bsf:v", "setts=duration=3000", "-video_track_timescale", "90000", "-movie_timescale", "90000",
                               path], capture_output=True)
        if made.returncode == 0 and ffprobe(path, "stream_side_data=rotation") == "-90":
            return " ".join(before + after)
    return None


def ffprobe(path, entries):
    return subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", entries,
                           "-of", "default=noprint_wrappers=1:nokey=1", path], capture_output=True, text=True).stdout.strip()


def ffmpeg_frames(path):
    """Every decoded frame as ffmpeg sees it: [(time in ns, md5)], rotation not applied."""
    time_base = ffprobe(path, "stream=time_base")
    out = subprocess.run(["ffmpeg", "-v", "error", "-noautorotate", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
                          "-enc_time_base", time_base.replace("/", ":"), "-f", "framemd5", "-"],
                         capture_output=True, text=True, check=True).stdout
    num, den = map(int, re.search(r"^#tb 0: (\d+)/(\d+)$", out, re.M).groups())
    frames = []
    for line in out.splitlines():
        if not line.startswith("#"):
            fields = [field.strip() for field in line.split(",")]
            # As qtdemux converts a time: gst_util_uint64_scale, rounding down.
            frames.append((int(fields[2]) * num * 1_000_000_000 // den, fields[5]))
    return frames, den


def file_facts(path):
    """What GStreamer's decodebin says: the image-orientation tag and the duration."""
    pipeline = Gst.parse_launch(f'filesrc location="{path}" ! decodebin ! fakesink')
    pipeline.set_state(Gst.State.PAUSED)
    bus, orientation = pipeline.get_bus(), None
    while True:
        message = bus.timed_pop_filtered(30 * Gst.SECOND, Gst.MessageType.TAG | Gst.MessageType.ASYNC_DONE | Gst.MessageType.ERROR)
        if message is None or message.type != Gst.MessageType.TAG:
            break
        found, value = message.parse_tag().get_string("image-orientation")
        orientation = value if found else orientation
    known, duration = pipeline.query_duration(Gst.Format.TIME)
    pipeline.set_state(Gst.State.NULL)
    return orientation, duration if known else None


def converted_frames(path):
    """The file through decodebin ! videoconvertscale to NV12 at the size the element fits it
    to (360x202 for 640x360 in 360x640): [(pts, md5 of the NV12 frame)]."""
    pipeline = Gst.parse_launch(f'filesrc location="{path}" ! decodebin ! videoconvertscale ! '
                                f"video/x-raw,format=NV12,width={W},height={W * 360 // 640 // 2 * 2},pixel-aspect-ratio=1/1 ! "
                                "appsink name=sink sync=false")
    sink = pipeline.get_by_name("sink")
    pipeline.set_state(Gst.State.PLAYING)
    frames = []
    while True:
        sample = sink.emit("try-pull-sample", 60 * Gst.SECOND)
        if sample is None:
            break
        buffer = sample.get_buffer()
        frames.append((buffer.pts, hashlib.md5(buffer.extract_dup(0, buffer.get_size())).hexdigest()))
    pipeline.set_state(Gst.State.NULL)
    return frames


def changes(frames):
    """The frames that differ from the one before them (the first always): [(index, time)]."""
    return [(i, time) for i, (time, md5) in enumerate(frames) if i == 0 or md5 != frames[i - 1][1]]


def slot(time):
    """The first video slot whose start (floor(k * 1e9 / 30) ns) is at or after time less 1 ms,
    as a start: the element takes a picture up to 1 ms after a slot's start as the slot's, since
    containers round times (docs/replaykitsrc.md)."""
    time = max(time - 1_000_000, 0)
    k = -(-30 * time // 1_000_000_000)   # floor(k * 1e9 / 30) >= time  <=>  k * 1e9 / 30 >= time
    return k * 1_000_000_000 // 30


# 1. The file, and what ffmpeg and GStreamer say about it.
video = os.path.join(folder, "screen.mov")
how = make_video(video)
check("ffmpeg writes a MOV whose display matrix ffprobe reads as -90 (turned 90 degrees clockwise)", how is not None,
      f"with {how!r} ({subprocess.run(['ffmpeg', '-version'], capture_output=True, text=True).stdout.split()[2]})")
if how is None:
    sys.exit(1)
size = ffprobe(video, "stream=codec_name,width,height").split()
frames, scale = ffmpeg_frames(video)
distinct = changes(frames)
intervals = [b[0] - a[0] for a, b in zip(frames, frames[1:])]
check("the file: H.264 640x360, its frame times and where its picture changes (ffmpeg framemd5) the intended schedule",
      size == ["h264", "640", "360"] and [t for t, _ in frames] == [ticks * 1_000_000_000 // TICKS for ticks, _ in schedule]
      and [i for i, _ in distinct] == [i for i, (_, new) in enumerate(schedule) if new],
      f"{' '.join(size)}, {len(frames)} frames, {len(distinct)} distinct (of {len(schedule)} planned, "
      f"{sum(1 for _, new in schedule if new)} new), intervals {min(intervals) / 1e6:.1f} to {max(intervals) / 1e6:.1f} ms, "
      f"time base 1/{scale}")
orientation, duration = file_facts(video)
probed = float(ffprobe(video, "format=duration") or "nan")
check("GStreamer reads the file as the element will: image-orientation rotate-90, duration 30 s as ffprobe's",
      orientation == "rotate-90" and duration == 30_000_000_000 and abs(probed - 30.0) < 1e-6,
      f"{orientation}, GStreamer {duration} ns, ffprobe {probed} s")
converted = converted_frames(video)
check("decodebin ! videoconvertscale to NV12 360x640 changes the picture exactly where ffmpeg's md5 does, at the same times",
      len(converted) == len(frames) and changes(converted) == distinct,
      f"{len(converted)} frames, {len(changes(converted))} distinct; first times {[t for t, _ in converted[:3]]}")
expected = [slot(time) for _, time in distinct]
assert all(b > a for a, b in zip(expected, expected[1:])), "two distinct frames in one slot: the schedule is wrong"
early = [time for _, time in distinct if time < 10_000_000_000]

factory = Gst.ElementFactory.find("replaykitsrc")
element = factory.create(None) if factory else None
if element is None or element.find_property("screen-location") is None:
    check("replaykitsrc has a screen-location property", False, "not found (GST_PLUGIN_PATH?)")
    shutil.rmtree(folder, ignore_errors=True)
    sys.exit(1)


def broadcast(properties, keep=()):
    """Runs replaykitsrc non-live at 360x640; returns what its video pad sent: buffers
    [(pts, duration)], the data of those whose pts is in keep, the caps of the first, the
    image-orientation tags [(buffers before it, value)], whether EOS came on the bus, the
    finished message's broadcast time, and the error, if any."""
    pipeline = Gst.parse_launch(f"replaykitsrc is-live=false width={W} height={H} {properties} name=rk "
                                "rk.video ! fakesink rk.audio_app ! fakesink rk.audio_mic ! fakesink")
    seen = {"buffers": [], "data": {}, "caps": None, "tags": [], "eos": False, "finished": None, "error": None}

    def note(pad, info):
        if info.type & Gst.PadProbeType.BUFFER:
            buffer = info.get_buffer()
            if not seen["buffers"]:
                seen["caps"] = pad.get_current_caps()
            seen["buffers"].append((buffer.pts, buffer.duration))
            if buffer.pts in keep:
                seen["data"][buffer.pts] = buffer.extract_dup(0, buffer.get_size())
        elif info.get_event().type == Gst.EventType.TAG:
            found, value = info.get_event().parse_tag().get_string("image-orientation")
            if found:
                seen["tags"].append((len(seen["buffers"]), value))
        return Gst.PadProbeReturn.OK

    pipeline.get_by_name("rk").get_static_pad("video").add_probe(
        Gst.PadProbeType.BUFFER | Gst.PadProbeType.EVENT_DOWNSTREAM, note)
    pipeline.set_state(Gst.State.PLAYING)
    bus = pipeline.get_bus()
    while True:
        message = bus.timed_pop_filtered(120 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR | Gst.MessageType.ELEMENT)
        if message is None:
            seen["error"] = "timed out"
            break
        if message.type == Gst.MessageType.ERROR:
            seen["error"] = message.parse_error()[0].message
            break
        if message.type == Gst.MessageType.EOS:
            seen["eos"] = True
            break
        structure = message.get_structure()
        if structure.get_name() == "replaykit-broadcast-finished":
            seen["finished"] = structure.get_value("broadcast-time")
    pipeline.set_state(Gst.State.NULL)
    return seen


def compare(got, want):
    """How two lists of times differ: the first few differences."""
    wrong = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
    return f"; differ at {len(wrong)} (index, got, expected): {wrong[:5]}" if wrong else ""


# 2. file-end=finish: the buffers, their times, the tag, the caps, the end.
by_time = {round(time / 1e9 * TICKS): (number, time) for number, (time, _) in enumerate(frames)}
pictures = [by_time[round(s * TICKS)] for s in (0.1, 8.5, 14.05, 20.31)]   # frames of four stretches
assert all(number in dict(distinct) for number, _ in pictures)
run = broadcast(f'screen-location="{video}" file-end=finish', keep={slot(time) for _, time in pictures})
times = [pts for pts, _ in run["buffers"]]
check("file-end=finish: no error, EOS on every pad (the bus's EOS)", run["error"] is None and run["eos"], str(run["error"]))
check("one buffer per distinct frame of the file", len(times) == len(distinct), f"{len(times)} buffers, {len(distinct)} distinct frames")
check("each buffer's PTS is the first slot at or after its frame's time (less 1 ms)",
      times[:len(expected)] == expected[:len(times)] and len(times) == len(expected),
      f"{min(len(times), len(expected))} compared" + compare(times, expected))
check("the image-orientation tag is rotate-90, before the first buffer",
      bool(run["tags"]) and run["tags"][0] == (0, "rotate-90") and all(value == "rotate-90" for _, value in run["tags"]),
      f"tags (buffers before it, value): {run['tags']}")
info = GstVideo.VideoInfo.new_from_caps(run["caps"]) if run["caps"] else None
check("caps: NV12 360x640, full range",
      info is not None and info.finfo.format == GstVideo.VideoFormat.NV12 and (info.width, info.height) == (W, H)
      and info.colorimetry.range == getattr(GstVideo.VideoColorRange, "0_255"),
      run["caps"].to_string() if run["caps"] else "no caps")
if times:
    last, length = run["buffers"][-1]
    end = last + (length if length != Gst.CLOCK_TIME_NONE else 0)
    check("the last buffer ends within the file, and the broadcast finished at the file's duration (within 1 ms)",
          end <= duration and run["finished"] is not None and abs(run["finished"] - duration) < 1_000_000,
          f"last buffer {seconds(last)} + {length if length != Gst.CLOCK_TIME_NONE else 'no'} ns, "
          f"finished at {run['finished']} ns, the file lasts {duration} ns")

# 3. The picture: the element's frames against ffmpeg's conversion of the same source frames.
height = W * 360 // 640     # the picture's rows: 202.5 rounds to the even 202
selection = "+".join(f"eq(n\\,{number})" for number, _ in pictures)


def references():
    """ffmpeg's pictures of the selected frames, scaled, in the file's own (limited) range: the
    luma planes of yuv420p, which every ffmpeg release leaves in the range it decoded. (Asked
    for gray or a full range, ffmpeg 7.1 and 9.0 each convert differently from 5.1.)"""
    raw = subprocess.run(["ffmpeg", "-v", "error", "-noautorotate", "-i", video, "-fps_mode", "passthrough", "-vf",
                          f"select={selection},scale={W}:{height}:flags=bilinear",
                          "-pix_fmt", "yuv420p", "-f", "rawvideo", "-"], capture_output=True, check=True).stdout
    frame = W * height * 3 // 2
    return [raw[i * frame:i * frame + W * height] for i in range(len(pictures))]


# Limited to full range, the luma: Y' = (Y - 16) * 255 / 219, as a full-range NV12 frame holds it.
to_full = bytes(min(255, max(0, round((y - 16) * 255 / 219))) for y in range(256))


def difference(luma, top, reference):
    picture = luma[top * W:(top + height) * W]
    return sum(abs(a - b) for a, b in zip(picture, reference)) / len(reference)


limited = references()
for (number, time), coded in zip(pictures, limited):
    reference = coded.translate(to_full)
    data = run["data"].get(slot(time))
    if data is None:
        check(f"the picture of the frame at {seconds(time)}", False, f"no buffer at {slot(time)} ns")
        continue
    luma = data[:W * H]
    top = min(range((H - height) // 2 - 3, (H - height) // 2 + 4), key=lambda row: difference(luma, row, reference))
    mean = difference(luma, top, reference)
    borders = set(luma[STRIP * W:top * W]) | set(luma[(top + height) * W:])
    check(f"the picture of the frame at {seconds(time)} (file frame {number}), below the barcode strip: mean absolute "
          "luma difference < 3 from ffmpeg's picture of it brought to full range, letterbox borders uniform and black (Y <= 16)",
          mean < 3 and len(borders) == 1 and max(borders) <= 16,
          f"{mean:.2f} with the picture's {height} rows from row {top}; {difference(luma, top, coded):.2f} from "
          f"ffmpeg's picture left in the file's limited range; border values {sorted(borders)}")

# 4. file-end=loop: again from the start at the file's duration, until 40 s. The second pass
# delivers the distinct frames before 10 s (its first frame differs from the file's last one, so
# it counts too). The count may be off by one at the end: the file has a frame at exactly 10 s
# (the 24 fps stretch), which the second pass puts at exactly 40 s, the broadcast's finish;
# whether a frame stamped at the finish is delivered is a boundary this check leaves open. The
# times of all buffers delivered are compared exactly.
loop = broadcast(f'screen-location="{video}" duration=40000000000')
again = [slot(duration + time) for _, time in distinct]
looped = expected + [pts for pts in again if pts < 40_000_000_000]
times = [pts for pts, _ in loop["buffers"]]
check("file-end=loop, 40 s: the distinct frames, then those before 10 s again (within 1 at the 40 s end)",
      loop["error"] is None and abs(len(times) - (len(distinct) + len(early))) <= 1,
      f"{len(times)} buffers, expected {len(distinct)} + {len(early)} = {len(distinct) + len(early)} "
      f"(exactly {len(looped)} ending before 40 s); {loop['error']}")
check("file-end=loop: the second pass at file time + the file's duration",
      times[:len(looped)] == looped[:len(times)],
      f"{min(len(times), len(looped))} compared" + compare(times, looped))

# 5. Sync marks over the file's picture.
flash, after = slot(1_000_000_000), slot(1_100_000_000)
marks = broadcast(f'screen-location="{video}" file-end=finish sync-marks=true duration=2000000000', keep={flash, after})
white = marks["data"].get(flash)
plain = marks["data"].get(after)
check("sync-marks=true: the frame at 1 s is white below the barcode strip (Y 255), the one at 1.1 s is the file's",
      marks["error"] is None and white is not None and set(white[STRIP * W:W * H]) == {255}
      and plain is not None and set(plain[STRIP * W:W * H]) != {255},
      f"{marks['error']}; at 1 s: {sorted(set(white[STRIP * W:W * H]))[:5] if white else 'no frame'}, "
      f"at 1.1 s: {len(set(plain[STRIP * W:W * H])) if plain else 'no frame'} luma values")


# 6. Files that cannot be the screen.
def start_error(path):
    """Takes the element to PAUSED: the state change's result and the error message."""
    pipeline = Gst.parse_launch(f'replaykitsrc is-live=false width={W} height={H} screen-location="{path}" name=rk '
                                "rk.video ! fakesink rk.audio_app ! fakesink rk.audio_mic ! fakesink")
    result = pipeline.set_state(Gst.State.PAUSED)
    if result == Gst.StateChangeReturn.ASYNC:
        result = pipeline.get_state(60 * Gst.SECOND)[0]
    message = pipeline.get_bus().timed_pop_filtered(10 * Gst.SECOND, Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    return result, message.parse_error()[0].message if message else None


text = os.path.join(folder, "notes.mov")
with open(text, "w") as notes:
    notes.write("This is not a video.\n" * 20)
voice = os.path.join(folder, "voice.m4a")
subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:a", "aac", voice], check=True)
for what, path in (("a missing file", "/nonexistent/x.mov"), ("a text file named .mov", text), ("an audio-only file", voice)):
    result, error = start_error(path)
    check(f"{what}: the start fails with an error naming screen-location and the path",
          result == Gst.StateChangeReturn.FAILURE and error is not None and "screen-location" in error and path in error,
          f"{result.value_nick}: {error}")

shutil.rmtree(folder, ignore_errors=True)
sys.exit(1 if failures else 0)
