# SPDX-License-Identifier: LGPL-2.1-or-later
"""Prints the resampling quality of dualmixer and of audioresample (default quality) on
the same signal: THD+N of a 1 kHz sine at -6 dBFS converted to 48 kHz from 44.1 and 32 kHz,
measured by a least-squares fit of the tone (everything else is distortion plus noise)."""
import os
import subprocess
import sys
import tempfile

import numpy as np


def thd_plus_n(path):
    x = np.fromfile(path, dtype=np.float32)[0::2].astype(np.float64)  # left channel
    x = x[9600:-9600]  # skip the edges
    n = np.arange(len(x))
    w = 2 * np.pi * 1000 / 48000
    basis = np.stack([np.ones_like(n, dtype=float), np.cos(w * n), np.sin(w * n)], axis=1)
    coefficients, *_ = np.linalg.lstsq(basis, x, rcond=None)
    fitted = basis @ coefficients
    residual = x - fitted
    return 10 * np.log10(np.sum(residual ** 2) / np.sum((fitted - coefficients[0]) ** 2))


def main():
    out = tempfile.mkdtemp()
    rows = []
    for rate in (44100, 32000):
        source = (f"audiotestsrc freq=1000 volume=0.5 num-buffers=200 samplesperbuffer={rate // 100} "
                  f"! audio/x-raw,format=F32LE,rate={rate},channels=1")
        ours = os.path.join(out, f"ours-{rate}.raw")
        peer = os.path.join(out, f"peer-{rate}.raw")
        subprocess.run(["gst-launch-1.0", "-q"] + (f"{source} ! m.app dualmixer name=m ! audio/x-raw,format=F32LE "
                       f"! filesink location={ours}").split(), check=True)
        subprocess.run(["gst-launch-1.0", "-q"] + (f"{source} ! audioresample ! audio/x-raw,format=F32LE,rate=48000 "
                       f"! audioconvert ! audio/x-raw,channels=2 ! filesink location={peer}").split(), check=True)
        rows.append(f"{rate / 1000:g} kHz -> 48 kHz THD+N of 1 kHz: dualmixer {thd_plus_n(ours):.1f} dB, "
                    f"audioresample {thd_plus_n(peer):.1f} dB")
    print("   resampling quality: " + "; ".join(rows))


if __name__ == "__main__":
    sys.exit(main())
