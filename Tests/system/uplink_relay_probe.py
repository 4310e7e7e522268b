#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run inside `replaycast uplink --relay RELAY_PORT:SERVER_PORT`: a TCP and a UDP server on
SERVER_PORT, and a client that sends a numbered, timestamped message every 20 ms for SECONDS
to RELAY_PORT over each. The TCP server records when each message arrives; the UDP server
sends each datagram back, and the client records when the echo arrives. Prints one line per
message, times in seconds from the start on this process's monotonic clock:
    tcp NUMBER SENT ARRIVED
    udp NUMBER SENT ECHOED
    uplink_relay_probe.py RELAY_PORT SERVER_PORT SECONDS"""
import socket
import struct
import sys
import threading
import time

relay, server_port, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
MESSAGE = struct.Struct("!Id92x")
start = time.monotonic()
lines = []
lock = threading.Lock()


def record(kind, data):
    number, sent = MESSAGE.unpack(data)
    with lock:
        lines.append(f"{kind} {number} {sent:.4f} {time.monotonic() - start:.4f}")


def tcp_server(listener):
    connection, _ = listener.accept()
    pending = b""
    while True:
        data = connection.recv(4096)
        if not data:
            return
        pending += data
        while len(pending) >= MESSAGE.size:
            record("tcp", pending[:MESSAGE.size])
            pending = pending[MESSAGE.size:]


def udp_server(sock):
    while True:
        data, peer = sock.recvfrom(2048)
        sock.sendto(data, peer)


def udp_echoes(sock):
    while True:
        try:
            record("udp", sock.recv(2048))
        except OSError:
            return


listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", server_port))
listener.listen()
datagrams = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
datagrams.bind(("127.0.0.1", server_port))
threading.Thread(target=tcp_server, args=(listener,), daemon=True).start()
threading.Thread(target=udp_server, args=(datagrams,), daemon=True).start()

tcp = socket.create_connection(("127.0.0.1", relay))
udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
udp.connect(("127.0.0.1", relay))
threading.Thread(target=udp_echoes, args=(udp,), daemon=True).start()
number = 0
while time.monotonic() - start < seconds:
    message = MESSAGE.pack(number, time.monotonic() - start)
    tcp.sendall(message)
    udp.send(message)
    number += 1
    time.sleep(0.02)
print("sent", number, flush=True)
# What the stall held back arrives after the resume; give it time before reporting.
time.sleep(1.0)
with lock:
    print("\n".join(lines), flush=True)
