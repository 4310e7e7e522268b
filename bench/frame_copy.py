# SPDX-License-Identifier: LGPL-2.1-or-later
"""The physical limit for a compositor that rebuilds every frame: how long copying one frame
of WIDTHxHEIGHT NV12 (12 bits per pixel) takes on this machine, memcpy between two buffers
that stay allocated (as a buffer pool's do). Usage: python3 bench/frame_copy.py 1920 1080"""
import statistics
import sys
import time

width, height = int(sys.argv[1]), int(sys.argv[2])
size = width * height * 3 // 2
source, target = bytearray(b"\x80" * size), bytearray(size)
view = memoryview(target)
times = []
for _ in range(300):
    start = time.perf_counter()
    view[:] = source
    times.append(time.perf_counter() - start)
print(f"   physical limit: copying one {width}x{height} NV12 frame ({size} bytes) takes "
      f"{statistics.median(times[50:]) * 1000:.3f} ms here (median of 250 copies)")
