# SPDX-License-Identifier: LGPL-2.1-or-later
"""Designs the resampler's upsampling prototype (ResamplingFilter.upsampling), prints it as
the Swift literal of its spectrum samples, then its response in the bands below.

The prototype is h(t) = sum_k a_k cos(2 pi k t / T) for |t| < T/2 (t in input periods,
T = 64 taps), 0 outside. Being time-limited, its spectrum at k/T cycles per input period is
exactly (T/2) a_k (T a_0 at 0): the a_k are samples of the response, which the sincs of the
time limit interpolate in between. The a_k minimise the largest weighted error against a
target response on a frequency grid (Lawson's iteratively reweighted least squares, which
converges to the minimax solution), under h(+-T/2) = 0 so the prototype and its slope are
continuous at its ends. Frequencies nu are in units of the input's Nyquist frequency.

Target, each band's tolerance being the error it is weighted against:
  passband   0 ... 0.67  gain 1 within 3e-6 (0.00003 dB)
  droop   0.67 ... 0.9   gain 1 within 0.3 dB
  stopband 1.02 ... 1.04  -80 dB   (images of tones at 0.96-0.98 x Nyquist)
           1.04 ... 1.2   -106 dB  (images of tones at 0.8-0.96 x Nyquist)
           1.2  ... 1.6   -120 dB
           1.6  ... 8     -140 dB  (images of everything below 0.4 x Nyquist)
Nothing is asked between 0.9 and 1.02: that is the transition band.

Usage: python3 scripts/resampler_filter.py (numpy)."""
import sys

import numpy as np

TAPS = 64
TERMS = 41
SAMPLES_PER_PERIOD = 64  # for the numerical Fourier transform of the basis
BANDS = [  # (from, to, desired gain, tolerance)
    (0.0, 0.67, 1.0, 3e-6),
    (0.67, 0.9, 1.0, 1 - 10 ** (-0.3 / 20)),
    (1.02, 1.04, 0.0, 10 ** (-80 / 20)),
    (1.04, 1.2, 0.0, 10 ** (-106 / 20)),
    (1.2, 1.6, 0.0, 10 ** (-120 / 20)),
    (1.6, 8.0, 0.0, 10 ** (-140 / 20)),
]
ITERATIONS = 400


def basis_response(nu, t):
    """Fourier transform of each cos(2 pi k t / T) on |t| < T/2, with a_0 eliminated so that
    h(T/2) = sum_k a_k (-1)^k = 0: a_0 = -sum_{k>0} a_k (-1)^k."""
    k = np.arange(TERMS)
    columns = np.cos(2 * np.pi * np.outer(t, k) / TAPS)
    columns = columns[:, 1:] - np.outer(columns[:, 0], (-1.0) ** k[1:])
    return np.cos(np.pi * np.outer(nu, t)) @ columns / SAMPLES_PER_PERIOD


def design():
    t = (np.arange(TAPS * SAMPLES_PER_PERIOD) + 0.5) / SAMPLES_PER_PERIOD - TAPS / 2
    grid = [np.linspace(lo, hi, int((hi - lo) * 600) + 2) for lo, hi, _, _ in BANDS]
    matrix = np.vstack([basis_response(nu, t) for nu in grid])
    desired = np.concatenate([np.full(len(nu), d) for nu, (_, _, d, _) in zip(grid, BANDS)])
    weight = np.concatenate([np.full(len(nu), 1 / tol) for nu, (_, _, _, tol) in zip(grid, BANDS)])
    a, y = matrix * weight[:, None], desired * weight
    lawson = np.ones(len(y))
    best = None
    for _ in range(ITERATIONS):
        root = np.sqrt(lawson)
        z, *_ = np.linalg.lstsq(a * root[:, None], y * root, rcond=None)
        error = np.abs(a @ z - y)
        if best is None or error.max() < best[1]:
            best = (z, error.max())
        lawson = np.maximum(lawson * error / np.mean(lawson * error), 1e-12)
    z, worst = best
    k = np.arange(1, TERMS)
    coefficients = np.concatenate([[-np.sum(z * (-1.0) ** k)], z])
    return coefficients / response(coefficients, np.array([0.0]))[0], worst


def response(coefficients, nu):
    """Exact Fourier transform of the cosine series on |t| < T/2: a sum of sincs."""
    k = np.arange(len(coefficients))[None, :]
    f = nu[:, None] / 2  # cycles per input period
    return TAPS / 2 * (np.sinc(TAPS * f - k) + np.sinc(TAPS * f + k)) @ coefficients


def main():
    coefficients, worst = design()
    print(f"// largest weighted error {20 * np.log10(worst):+.2f} dB against the target")
    samples = coefficients * TAPS / 2
    samples[0] = coefficients[0] * TAPS
    print("static let upsamplingSpectrum: [Double] = [")
    for row in range(0, len(samples), 4):
        print("    " + ", ".join(f"{c:.17g}" for c in samples[row:row + 4]) + ",")
    print("]")
    nu = np.linspace(0, 8, 80001)
    db = 20 * np.log10(np.abs(response(coefficients, nu)) + 1e-300)
    print(f"passband: max |gain| {np.max(np.abs(db[nu <= 0.67])):.5f} dB to 0.67, "
          f"{np.max(np.abs(db[nu <= 0.9])):.3f} dB to 0.9")
    for lo in (1.02, 1.04, 1.2, 1.6, 1.9):
        print(f"stopband from {lo}: {np.max(db[nu >= lo]):.1f} dB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
