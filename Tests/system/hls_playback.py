#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A real player for ReplayCast's HLS output: headless Chromium (Debian's chromium +
chromium-driver, driven by Selenium from python3-selenium) plays it, as a viewer would.

  hls_playback.py FOLDER [--size 720x1558]
      FOLDER holds a finished HLS output (playlist.m3u8 + segments). It is served over http
      on 127.0.0.1 (ephemeral port) with a test page holding a muted
      <video src=playlist.m3u8 autoplay>. Asserts that the video plays to its end (`ended`
      within the playlist's duration + 20 s), `error` stays null, videoWidth x videoHeight
      is the expected size, and the final currentTime is within 0.5 s of the sum of the
      playlist's EXTINF durations.

  hls_playback.py --live URL
      URL is the preview page of `replaycast run FILE --serve 127.0.0.1:PORT` while the
      broadcast runs. Contract: the page has <video id=preview> playing playlist.m3u8
      (relative), elements <span data-meter="rms-0">, data-meter="momentary", ... whose text
      changes as Server-Sent Events arrive from /events. Asserts that /events answers as an
      event stream, that the video plays (currentTime advances by >= 2 s of real playback)
      and that the meters change within 5 s.

  hls_playback.py --forbidden BASEURL [--symlink NAME ...]
      Raw requests (http.client, so nothing normalises the path) for paths outside the
      served folder: /../etc/passwd, /%2e%2e/etc/passwd, /a/../../etc/passwd, //etc/passwd,
      ... and each NAME (a symbolic link in the served folder that points out of it). Each
      must answer 404; BASEURL/playlist.m3u8 must answer 200 (a server that refuses
      everything does not pass).

Prints the numbers it checks; exits non-zero on any failure. Every step has a timeout.
Needs Debian's /usr/bin/python3 (python3-selenium); started by another Python it re-runs
itself with /usr/bin/python3.
"""
import argparse
import functools
import http.client
import http.server
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
import urllib.parse

from checks import check, failures

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError:
    if os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    sys.exit("selenium is missing: install Debian's python3-selenium (scripts/deps test)")

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--autoplay-policy=no-user-gesture-required"]
TEST_PAGE = "/__hls_playback_test__.html"
PAGE = b"""<!doctype html>
<html><head><meta charset="utf-8"><title>hls playback</title></head>
<body><video id="v" src="playlist.m3u8" muted autoplay playsinline></video></body></html>
"""
# What the page reports on each poll.
STATE_JS = """
const v = arguments[0] ? document.querySelector(arguments[0]) : document.querySelector('video');
if (!v) return null;
return {currentTime: v.currentTime, duration: v.duration, ended: v.ended, paused: v.paused,
        readyState: v.readyState, networkState: v.networkState,
        videoWidth: v.videoWidth, videoHeight: v.videoHeight,
        error: v.error ? {code: v.error.code, message: v.error.message} : null};
"""
METERS_JS = """
return Array.from(document.querySelectorAll('[data-meter]')).map(e => [
  e.getAttribute('data-meter'), e.textContent.trim(), e.style.width || '',
  Math.round(e.getBoundingClientRect().width * 10) / 10]);
"""


class Chromium:
    """Headless Chromium through chromedriver, in a process group of its own so that a
    watchdog can end all of it."""

    def __init__(self, page_load_timeout=20):
        self.profile = tempfile.mkdtemp(prefix="hls-playback-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in CHROMIUM_FLAGS + [f"--user-data-dir={self.profile}", "--mute-audio"]:
            options.add_argument(flag)
        service = Service(executable_path=CHROMEDRIVER, popen_kw={"start_new_session": True})
        self.driver = webdriver.Chrome(service=service, options=options)
        self.pgid = service.process.pid
        self.driver.set_page_load_timeout(page_load_timeout)
        self.driver.set_script_timeout(10)

    def kill(self):
        try:
            os.killpg(self.pgid, signal.SIGKILL)
        except OSError:
            pass

    def quit(self):
        done = threading.Event()

        def quit_driver():
            try:
                self.driver.quit()
            except Exception:  # noqa: BLE001 - ending it anyway below
                pass
            done.set()

        threading.Thread(target=quit_driver, daemon=True).start()
        done.wait(15)
        self.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def watchdog(seconds, browser_holder):
    """Ends the whole check (browser included) if it outlives its budget."""

    def fire():
        print(f"FAIL timeout: the check did not finish within {seconds:.0f} s", flush=True)
        if browser_holder:
            browser_holder[0].kill()
        os._exit(1)

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    return timer


# ---------------------------------------------------------------------------------------
# Finished playlist

def read_playlist(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    durations = [float(m) for m in re.findall(r"^#EXTINF:([0-9.]+)", text, re.M)]
    return durations, "#EXT-X-ENDLIST" in text


def send_body(handler, body, content_type="text/html; charset=utf-8"):
    """Answers a handler's request with `body` (bytes), an HTML page unless told."""
    handler.send_response(200)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".m3u8": "application/vnd.apple.mpegurl", ".ts": "video/mp2t",
                      ".m4s": "video/iso.segment", ".mp4": "video/mp4", ".aac": "audio/aac"}

    def do_GET(self):  # noqa: N802 - http.server's name
        if self.path == TEST_PAGE:
            send_body(self, PAGE)
            return
        super().do_GET()

    def log_message(self, *args):
        pass


def serve(folder):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=folder))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def play_finished(folder, width, height):
    playlist = os.path.join(folder, "playlist.m3u8")
    if not check("playlist exists", os.path.isfile(playlist), playlist):
        return
    durations, ended = read_playlist(playlist)
    total = sum(durations)
    check("playlist is finished (EXT-X-ENDLIST)", ended)
    if not check("playlist has segments", len(durations) > 0, f"{len(durations)} segments, EXTINF sum {total:.3f} s"):
        return
    budget = total + 20
    holder = []
    timer = watchdog(budget + 60, holder)  # start-up and shut-down of the browser on top
    server = serve(folder)
    url = f"http://127.0.0.1:{server.server_address[1]}{TEST_PAGE}"
    browser = None
    try:
        started = time.monotonic()
        browser = Chromium()
        holder.append(browser)
        print(f"     chromium started in {time.monotonic() - started:.1f} s; page {url}", flush=True)
        browser.driver.get(url)
        loaded = time.monotonic()
        state, first_play, last_print = None, None, 0.0
        while time.monotonic() - loaded < budget:
            state = browser.driver.execute_script(STATE_JS, "#v")
            now = time.monotonic() - loaded
            if first_play is None and state and state["currentTime"] > 0:
                first_play = now
            if state is None or state["ended"] or state["error"]:
                break
            if now - last_print >= 2:
                print(f"     {now:5.1f} s  currentTime {state['currentTime']:.2f}  readyState {state['readyState']}"
                      f"  paused {state['paused']}", flush=True)
                last_print = now
            time.sleep(0.2)
        elapsed = time.monotonic() - loaded
        if not check("the page has the video", state is not None):
            return
        print(f"     after {elapsed:.1f} s: currentTime {state['currentTime']:.3f} s, duration {state['duration']}, "
              f"ended {state['ended']}, video {state['videoWidth']}x{state['videoHeight']}, error {state['error']}, "
              f"first frame played at {first_play if first_play is None else round(first_play, 1)} s", flush=True)
        check("no media error", state["error"] is None, str(state["error"]))
        check(f"played to its end within {budget:.1f} s (duration + 20 s)", state["ended"],
              f"ended after {elapsed:.1f} s of {budget:.1f}")
        check(f"video size {width}x{height}", (state["videoWidth"], state["videoHeight"]) == (width, height),
              f"{state['videoWidth']}x{state['videoHeight']}")
        check("final currentTime within 0.5 s of the EXTINF sum", abs(state["currentTime"] - total) <= 0.5,
              f"currentTime {state['currentTime']:.3f} s, EXTINF sum {total:.3f} s, "
              f"difference {state['currentTime'] - total:+.3f} s")
    finally:
        if browser:
            browser.quit()
        server.shutdown()
        timer.cancel()


# ---------------------------------------------------------------------------------------
# Live preview page of `replaycast run --serve`

def check_event_stream(page_url, timeout=10):
    """GET /events as a browser's EventSource would; the first `data:` line must arrive."""
    parts = urllib.parse.urlsplit(page_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=timeout)
    try:
        connection.request("GET", "/events", headers={"Accept": "text/event-stream"})
        response = connection.getresponse()
        kind = response.getheader("Content-Type", "")
        check("/events answers 200 as text/event-stream", response.status == 200 and kind.startswith("text/event-stream"),
              f"{response.status} {kind}")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = response.fp.readline()
            if not line:
                break
            if line.startswith(b"data:"):
                print(f"     first event: {line[:160].decode(errors='replace').strip()}", flush=True)
                return check("/events sends an event", True)
        return check("/events sends an event", False, f"none within {timeout} s")
    except OSError as error:
        return check("/events answers", False, repr(error))
    finally:
        connection.close()


def play_live(url, timeout):
    holder = []
    timer = watchdog(timeout + 90, holder)
    browser = None
    try:
        check_event_stream(url)
        browser = Chromium()
        holder.append(browser)
        browser.driver.get(url)
        loaded = time.monotonic()
        has_video = browser.driver.execute_script("return !!document.querySelector('video#preview')")
        check("the page has <video id=preview>", has_video)
        selector = "video#preview" if has_video else "video"
        src = browser.driver.execute_script(
            "const v = document.querySelector(arguments[0]); return v ? (v.currentSrc || v.src) : null;", selector)
        print(f"     video source: {src}", flush=True)

        # Meters: sample for 5 s from the page load; each named meter must show new values.
        samples = {}
        while time.monotonic() - loaded < 5:
            for name, text, style_width, box_width in browser.driver.execute_script(METERS_JS):
                samples.setdefault(name, set()).add((text, style_width, box_width))
            time.sleep(0.1)
        print(f"     meters: " + ", ".join(f"{n} {len(v)} states" for n, v in sorted(samples.items())), flush=True)
        check("the page has data-meter elements", len(samples) > 0)
        for name in ("rms-0", "momentary"):
            # The first state can be a placeholder before the first event: two events at least.
            check(f"meter {name} changes within 5 s", len(samples.get(name, ())) >= 3,
                  f"{len(samples.get(name, ()))} distinct states")
        changed = [n for n, v in samples.items() if len(v) >= 2]
        check("meters change within 5 s", len(changed) > 0, f"{len(changed)} of {len(samples)} changed")

        # Video: real playback (small forward steps of currentTime, not seeks) adds up to 2 s.
        # A live player may hit an error and recover (the page reloads the playlist): errors
        # are reported, and what counts is real playback within the time allowed.
        played, state, previous, previous_at, errors = 0.0, None, None, None, []
        while time.monotonic() - loaded < timeout and played < 2.0:
            state = browser.driver.execute_script(STATE_JS, selector)
            now = time.monotonic()
            if state is None:
                break
            if state["error"]:
                if state["error"] not in errors:
                    errors.append(state["error"])
                previous = None
                time.sleep(0.2)
                continue
            if previous is not None:
                step = state["currentTime"] - previous
                if 0 < step <= (now - previous_at) + 0.5:
                    played += step
            previous, previous_at = state["currentTime"], now
            time.sleep(0.2)
        if check("the preview video exists", state is not None):
            print(f"     after {time.monotonic() - loaded:.1f} s: played {played:.2f} s, currentTime "
                  f"{state['currentTime']:.2f}, paused {state['paused']}, readyState {state['readyState']}, "
                  f"video {state['videoWidth']}x{state['videoHeight']}, error {state['error']}", flush=True)
            check("no media error at the end", state["error"] is None, str(state["error"]))
            if errors:
                print(f"     errors the page recovered from: {errors}", flush=True)
            check(f"the preview plays >= 2 s within {timeout:.0f} s", played >= 2.0, f"{played:.2f} s played")
    finally:
        if browser:
            browser.quit()
        timer.cancel()


# ---------------------------------------------------------------------------------------
# Paths out of the served folder

ESCAPES = ["/../etc/passwd", "/../../../../../../etc/passwd", "/%2e%2e/etc/passwd", "/%2E%2E/%2E%2E/etc/passwd",
           "/.%2e/etc/passwd", "/..%2fetc%2fpasswd", "/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/a/../../etc/passwd",
           "/playlist.m3u8/../../etc/passwd", "//etc/passwd", "/..\\..\\etc\\passwd", "/%2fetc%2fpasswd"]


def raw_get(host, port, path, timeout=10):
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        connection.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", f"{host}:{port}")
        connection.endheaders()
        response = connection.getresponse()
        body = response.read(65536)
        return response.status, body
    finally:
        connection.close()


def forbidden(base, symlinks, control):
    timer = watchdog(30 + 10 * (len(ESCAPES) + len(symlinks)), [])
    parts = urllib.parse.urlsplit(base)
    host, port, prefix = parts.hostname, parts.port or 80, parts.path.rstrip("/")
    try:
        if control:
            status, _ = raw_get(host, port, f"{prefix}/{control}")
            check(f"control: {prefix}/{control} answers 200", status == 200, str(status))
        paths = [prefix + p for p in ESCAPES]
        paths += [f"{prefix}/{urllib.parse.quote(name)}" for name in symlinks]
        paths += [f"{prefix}/{urllib.parse.quote(name)}/passwd" for name in symlinks]
        for path in paths:
            try:
                status, body = raw_get(host, port, path)
            except (OSError, http.client.HTTPException) as error:
                check(f"{path} answers 404", False, repr(error))
                continue
            leaked = b"root:" in body
            check(f"{path} answers 404", status == 404 and not leaked,
                  f"{status}{', body holds /etc/passwd' if leaked else ''}")
    finally:
        timer.cancel()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", help="a finished HLS output: playlist.m3u8 + segments")
    parser.add_argument("--size", default="720x1558", help="expected video size WIDTHxHEIGHT (default 720x1558)")
    parser.add_argument("--live", metavar="URL", help="the preview page of replaycast run --serve")
    parser.add_argument("--timeout", type=float, default=30, help="--live: seconds for 2 s of playback (default 30)")
    parser.add_argument("--forbidden", metavar="BASEURL", help="the --serve server: paths out of its folder -> 404")
    parser.add_argument("--symlink", action="append", default=[], metavar="NAME",
                        help="--forbidden: a link in the served folder pointing out of it (repeatable)")
    parser.add_argument("--control", default="playlist.m3u8",
                        help="--forbidden: a path that must answer 200 ('' to skip; default playlist.m3u8)")
    args = parser.parse_args()
    modes = [m for m in (args.folder, args.live, args.forbidden) if m]
    if len(modes) != 1:
        parser.error("give one of FOLDER, --live URL, --forbidden BASEURL")
    match = re.fullmatch(r"(\d+)x(\d+)", args.size)
    if not match:
        parser.error("--size is WIDTHxHEIGHT")
    if args.folder:
        play_finished(os.path.abspath(args.folder), int(match.group(1)), int(match.group(2)))
    elif args.live:
        play_live(args.live, args.timeout)
    else:
        forbidden(args.forbidden, args.symlink, args.control)
    if failures:
        print(f"{len(failures)} check(s) failed", flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
