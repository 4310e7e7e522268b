# SPDX-License-Identifier: LGPL-2.1-or-later
"""Checks a finished HLS output the way a player meets it, with ffprobe and ffmpeg.

    hls_check.py PLAYLIST [--duration S --tolerance S] [--size WxH] [--no-dates]
        the playlist ends with EXT-X-ENDLIST; every EXTINF, and every segment's measured
        duration rounded to the nearest second, is <= EXT-X-TARGETDURATION; every segment has
        an EXT-X-PROGRAM-DATE-TIME and the dates increase (unless --no-dates); every segment
        starts with a video keyframe and decodes with `ffmpeg -xerror` with no message; the
        streams are H.264 of --size and AAC 48 kHz stereo; the total is --duration ± tolerance.
    hls_check.py --pip PIPELINE SEGMENT
        the PiP camera of PIPELINE (its sink_1:: placement, the default camera's size) is
        drawn where the pipeline puts it in the first frame of SEGMENT: a white border on the
        ring the numbers give, the camera's colours inside, the screen just outside and
        beyond the rounded corners.
Prints the numbers it compares; exits 1 on the first failed group of checks.
"""
import datetime
import os
import re
import subprocess
import sys

FFMPEG_TIMEOUT = 60


def fail(text):
    print(f"FAIL: {text}")
    sys.exit(1)


def run(args):
    return subprocess.run(args, capture_output=True, text=True, timeout=FFMPEG_TIMEOUT)


def probe(path, entries, *extra):
    out = run(["ffprobe", "-v", "error", *extra, "-show_entries", entries, "-of", "csv=p=0", path])
    return [line for line in out.stdout.splitlines() if line.strip()]


def parse_playlist(path):
    text = open(path).read()
    target = None
    segments = []  # (extinf, date or None, uri)
    extinf = date = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("#EXT-X-TARGETDURATION:"):
            target = int(line.split(":", 1)[1])
        elif line.startswith("#EXTINF:"):
            extinf = float(line.split(":", 1)[1].split(",")[0])
        elif line.startswith("#EXT-X-PROGRAM-DATE-TIME:"):
            date = line.split(":", 1)[1]
        elif line and not line.startswith("#"):
            segments.append((extinf, date, line))
            extinf = date = None
    return text, target, segments


def check_playlist(path, duration, tolerance, size, dates):
    folder = os.path.dirname(path)
    text, target, segments = parse_playlist(path)
    print(f"playlist {path}: {len(segments)} segments, target duration {target}")
    if "#EXT-X-ENDLIST" not in text:
        fail("no EXT-X-ENDLIST")
    if target is None or not segments:
        fail("no EXT-X-TARGETDURATION or no segments")

    too_long = [(uri, inf) for inf, _, uri in segments if inf is None or inf > target]
    print(f"EXTINF: max {max(inf for inf, _, _ in segments):.3f} s")
    if too_long:
        fail(f"EXTINF above the target duration {target}: {too_long}")

    measured = []
    for _, _, uri in segments:
        d = float(probe(os.path.join(folder, uri), "format=duration")[0])
        measured.append(d)
    print("measured segment durations: " + " ".join(f"{d:.3f}" for d in measured))
    if any(round(d) > target for d in measured):
        fail(f"a segment lasts more than the target duration {target} s (rounded)")

    if dates:
        missing = [uri for _, date, uri in segments if date is None]
        if missing:
            fail(f"no EXT-X-PROGRAM-DATE-TIME before {len(missing)} of {len(segments)} segments (first: {missing[0]})")
        parsed = [datetime.datetime.fromisoformat(date.replace("Z", "+00:00")) for _, date, _ in segments]
        steps = [(b - a).total_seconds() for a, b in zip(parsed, parsed[1:])]
        print("PROGRAM-DATE-TIME steps: " + " ".join(f"{s:.3f}" for s in steps))
        if any(s <= 0 for s in steps):
            fail("EXT-X-PROGRAM-DATE-TIME does not increase")

    for _, _, uri in segments:
        seg = os.path.join(folder, uri)
        first = probe(seg, "packet=flags", "-select_streams", "v", "-read_intervals", "%+#1")
        if not first or not first[0].startswith("K"):
            fail(f"{uri} does not start with a keyframe (first video packet flags {first[:1]})")
        decoded = run(["ffmpeg", "-nostdin", "-v", "error", "-xerror", "-i", seg, "-f", "null", "-"])
        if decoded.returncode != 0 or decoded.stderr.strip():
            fail(f"{uri} does not decode cleanly (status {decoded.returncode}): {decoded.stderr.strip()[:500]}")
    print(f"every segment starts with a keyframe and decodes with -xerror, no messages")

    streams = set(probe(path, "stream=codec_name,width,height,sample_rate,channels"))
    print(f"streams: {sorted(streams)}")
    w, h = size.split("x")
    if f"h264,{w},{h}" not in streams or "aac,48000,2" not in streams:
        fail(f"expected h264 {size} and aac 48000 Hz stereo")
    total = float(probe(path, "format=duration")[0])
    print(f"duration {total:.3f} s (expected {duration} ± {tolerance})")
    if abs(total - duration) > tolerance:
        fail("duration out of tolerance")


def pip_numbers(pipeline):
    text = " ".join(line.split("#")[0] for line in open(pipeline))
    def number(pattern, kind=float):
        m = re.search(pattern, text)
        if not m:
            fail(f"{pipeline}: no match for {pattern}")
        return kind(m.group(1))
    camera = re.search(r"\$\{CAMERA:-[^}]*?width=(\d+),height=(\d+)", text)
    out = re.search(r"videoscale ! video/x-raw,width=(\d+),height=(\d+)", text)
    if not camera or not out:
        fail(f"{pipeline}: cannot find the camera's or the output's size")
    return {
        "camera": (int(camera[1]), int(camera[2])),
        "output": (int(out[1]), int(out[2])),
        "position": number(r"sink_1::position=([\w-]+)", str),
        "scale": number(r"sink_1::scale=([\d.]+)"), "margin": number(r"sink_1::margin=(\d+)", int),
        "border": number(r"sink_1::border-width=(\d+)", int), "radius": number(r"sink_1::corner-radius=(\d+)", int),
        "border_color": number(r"sink_1::border-color=0x([0-9a-fA-F]{8})", lambda s: int(s, 16) & 0xFFFFFF),
        "colors": [int(c, 16) & 0xFFFFFF for c in re.findall(r"(?:fore|back)ground-color=0x([0-9a-fA-F]{8})", text)],
    }


def check_pip(pipeline, segment):
    n = pip_numbers(pipeline)
    if n["position"] != "bottom-right":
        fail("only position=bottom-right is computed here")
    # pipcompositor's output already has the size the caps after videoscale fix (videoscale
    # passes it through): the screen is scaled into it and the PiP placed in its pixels.
    W, H = n["output"]
    cw, ch = n["camera"]
    # pipcompositor's rules (docs/pipcompositor.md, "Where pictures go"): width = scale x
    # output width, height from the camera's aspect; far edges rounded down to even in 4:2:0.
    w = round(n["scale"] * W)
    h = round(w * ch / cw)
    x = (W - w - n["margin"]) & ~1
    y = (H - h - n["margin"]) & ~1
    OW, OH = W, H
    sx, sy = 1.0, 1.0
    print(f"PiP in the {W}x{H} output: {w}x{h} at ({x}, {y}), border {n['border']}, radius {n['radius']}")

    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", segment, "-frames:v", "1",
                          "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], capture_output=True, timeout=FFMPEG_TIMEOUT).stdout
    if len(raw) != OW * OH * 3:
        fail(f"decoded {len(raw)} bytes, expected one {OW}x{OH} RGB frame")

    def pixel(px, py):  # screen coordinates -> output pixel
        ox, oy = min(OW - 1, max(0, int(px * sx))), min(OH - 1, max(0, int(py * sy)))
        i = (oy * OW + ox) * 3
        return raw[i], raw[i + 1], raw[i + 2]

    def luma(p):
        return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]

    def mean(points):
        ps = [pixel(px, py) for px, py in points]
        return tuple(sum(p[c] for p in ps) / len(ps) for c in range(3)), min(luma(p) for p in ps)

    b, r = n["border"], n["radius"]
    mid = b / 2  # the middle of the border band
    ring = ([(x + mid, yy) for yy in range(y + r, y + h - r, 4)] + [(x + w - mid, yy) for yy in range(y + r, y + h - r, 4)] +
            [(xx, y + mid) for xx in range(x + r, x + w - r, 4)] + [(xx, y + h - mid) for xx in range(x + r, x + w - r, 4)])
    (br, bg, bb), bmin = mean(ring)
    bc = n["border_color"]
    expected = ((bc >> 16) & 255, (bc >> 8) & 255, bc & 255)
    print(f"border ring ({len(ring)} points): mean RGB ({br:.0f}, {bg:.0f}, {bb:.0f}), darkest luma {bmin:.0f}; "
          f"border-color {expected}")
    if max(abs(br - expected[0]), abs(bg - expected[1]), abs(bb - expected[2])) > 30:
        fail("the border is not where the pipeline puts it")

    # Inside: the camera's colours only (its background and its foreground, blended at edges).
    colors = [((c >> 16) & 255, (c >> 8) & 255, c & 255) for c in n["colors"]]
    inset = b + 4
    inside = [(xx, yy) for yy in range(y + inset, y + h - inset, 6) for xx in range(x + inset, x + w - inset, 6)]
    def near_camera(p):
        # on the segment between background and foreground colours (their blend), within 40
        (a, c) = colors[:2]
        d = [c[i] - a[i] for i in range(3)]
        t = max(0.0, min(1.0, sum((p[i] - a[i]) * d[i] for i in range(3)) / sum(v * v for v in d)))
        return sum((p[i] - (a[i] + t * d[i])) ** 2 for i in range(3)) ** 0.5 <= 40
    share = sum(near_camera(pixel(px, py)) for px, py in inside) / len(inside)
    print(f"inside ({len(inside)} points): {share * 100:.1f} % in the camera's colours {colors[:2]}")
    if share < 0.9:
        fail("the camera picture is not inside the PiP rectangle")

    # Outside: the screen. Right and bottom: the margin, 8 px beyond the rectangle;
    # corners: just inside the rectangle's corner, beyond the rounding.
    outside = [(x + w + 8, yy) for yy in range(y + r, y + h - r, 4)] + [(xx, y + h + 8) for xx in range(x + r, x + w - r, 4)]
    (orr, og, ob), _ = mean(outside)
    corners = [(x + w - 2, y + 2), (x + w - 2, y + h - 2), (x + 2, y + h - 2), (x + 2, y + 2)]
    corner_pixels = [pixel(px, py) for px, py in corners]
    print(f"outside (margin, {len(outside)} points): mean RGB ({orr:.0f}, {og:.0f}, {ob:.0f}); "
          f"rounded-off corners RGB {corner_pixels}")
    if max(abs(orr - expected[0]), abs(og - expected[1]), abs(ob - expected[2])) < 60:
        fail("the border colour continues outside the PiP rectangle")
    if r > 2 * b and sum(max(abs(p[i] - expected[i]) for i in range(3)) < 30 for p in corner_pixels[:2]) == 2:
        fail("the right-hand corners are not rounded (border colour at the rectangle's corners)")


def main():
    args = sys.argv[1:]
    if args and args[0] == "--pip":
        check_pip(args[1], args[2])
        return
    path = args[0]
    opts = {"--duration": None, "--tolerance": "0.6", "--size": "720x1558"}
    dates = "--no-dates" not in args
    for key in opts:
        if key in args:
            opts[key] = args[args.index(key) + 1]
    duration = float(opts["--duration"]) if opts["--duration"] else None
    check_playlist(path, duration if duration is not None else 0, float(opts["--tolerance"]) if duration is not None else 1e9,
                   opts["--size"], dates)


if __name__ == "__main__":
    main()
