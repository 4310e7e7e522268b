#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run inside `replaycast uplink`: sends TCP as fast as it can to SHAPED_PORT for SECONDS
and prints, per second, the bits per second that arrived; then 1 s to FREE_PORT, which the
link does not shape.
    uplink_probe.py SHAPED_PORT FREE_PORT SECONDS"""
import socket
import sys
import threading
import time

shaped, free, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])


def measure(port, duration):
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", port))
    server.listen()
    arrivals = []

    def receive():
        connection, _ = server.accept()
        while True:
            data = connection.recv(1 << 16)
            if not data:
                break
            arrivals.append((time.monotonic(), len(data)))

    receiver = threading.Thread(target=receive, daemon=True)
    receiver.start()
    sender = socket.create_connection(("127.0.0.1", port))
    sender.settimeout(0.1)
    start = time.monotonic()
    chunk = b"\0" * 16384
    while time.monotonic() - start < duration:
        try:
            sender.send(chunk)
        except socket.timeout:
            pass
    per_second = [0] * int(duration)
    for when, size in arrivals:
        second = int(when - start)
        if second < len(per_second):
            per_second[second] += size * 8
    sender.close()
    server.close()
    return per_second


print("shaped", " ".join(str(bits) for bits in measure(shaped, seconds)), flush=True)
print("free", " ".join(str(bits) for bits in measure(free, 1)), flush=True)
