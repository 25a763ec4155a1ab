#!/usr/bin/env python3
"""Functional check of the ninth held-out timing set (set29.txt) on the simulator.

    python3 docs/validation/h100/timing-set/check-set29.py WARPSIM [SUBSTRING...]

For every line of set29.txt (or those whose text holds one of the SUBSTRINGs) it runs
`WARPSIM run ARGS --mode functional --dump NAME=FILE` for every buffer of the line, from the
repository root, reads the buffers back from the dumps (raw little-endian elements, docs/inputs.md)
and compares the outputs with a host reference written here in Python for that kernel. The inputs
are read from the same dumps, so the reference needs no copy of warpsim's random generator. The
`--nvcc-opt -DNAME=V` defines of a line (ITEMS, INTER, N, B, WIDTH, FN, OUT, L, P, WHERE, W, ALG)
are passed to its reference. The integer outputs (merged keys, unpacked values, upper-cased bytes,
Philox words, big-integer products, parities, counts, bucket contents, GCDs, bitmaps) must match
exactly, and so must the floating-point ones of the kernels without special functions (thomas and
pcr, whose f32 arithmetic is emulated step by step in the kernel's order: NVRTC runs with
--fmad=false, so each a * b, a + b and a / b is rounded once; f64_divsqrt's sums of correctly
rounded f64 divisions and square roots, which Python's floats reproduce; philox's uniform floats;
point_in_poly's crossing abscissae; tanimoto's quotients of two integers). One output uses special
functions and is compared within a stated tolerance: philox's Box-Muller normals (logf, sqrtf and
sinpif) against double-precision math on the same f32 arguments, within 4e-6 + 1e-5 |want|; its
Python Philox4x32-10 is first checked against Random123's known-answer vectors. particle_bin's
slots are claimed in the order the atomics land, so each cell's bucket is compared as a set. Where a
full reference would take minutes in Python, a fixed pseudo-random sample of outputs (or systems,
points, threads, numbers) plus the first and last ones is checked. Prints one PASS/FAIL line per run
and exits 1 if any failed. Stdlib only.
"""

import math
import os
import struct

import setcheck
from setcheck import Fail, close, expect, f32, main

HERE = os.path.dirname(os.path.abspath(__file__))
SET = os.path.join(HERE, "set29.txt")

M32 = (1 << 32) - 1


def sample(count, k=20000, seed=29):
    return setcheck.sample(count, k, seed)


def d(defines, name, default):
    return int(defines.get(name, default))


def as_floats(words):
    """u32 words (an array) reinterpreted as f32 values."""
    return struct.unpack(f"<{len(words)}f", struct.pack(f"<{len(words)}I", *words))


# ---- the references, one per kernel: (args, bufs, defines) -> a short summary; raise Fail on a difference ----

def check_merge(a, b, dfs):
    na, nb = a["na"], a["nb"]
    A, B, C = b["a"], b["b"], b["c"]
    total = na + nb
    expect(len(C) == total, f"c holds {len(C)} elements, want {total}")
    for name, arr in (("a", A), ("b", B)):
        for i in sample(len(arr) - 1, 50000):
            expect(arr[i] <= arr[i + 1], f"{name} is not sorted at {i}")
    picked = sample(total, 100000)
    for k in picked:
        lo, hi = max(0, k - nb), min(k, na)
        while lo < hi:  # i outputs from a among the first k: the lowest i with a[i] > b[k - 1 - i]
            mid = (lo + hi) >> 1
            if A[mid] <= B[k - 1 - mid]:
                lo = mid + 1
            else:
                hi = mid
        i, j = lo, k - lo
        want = A[i] if j >= nb or (i < na and A[i] <= B[j]) else B[j]
        expect(C[k] == want, f"c[{k}] = {C[k]}, want {want} ({i} from a before it)")
    return f"{len(picked)} of {total} merged keys exact (ITEMS {d(dfs, 'ITEMS', 16)})"


def check_thomas(a, b, dfs):
    n, s = a["n"], a["s"]
    inter = d(dfs, "INTER", 1)
    A, B, C, D, CP, X = b["a"], b["b"], b["c"], b["d"], b["cp"], b["x"]
    picked = sample(s, 1500 if n <= 64 else 200)
    for t in picked:
        idx = [k * s + t for k in range(n)] if inter else [t * n + k for k in range(n)]
        o = idx[0]
        m = f32(B[o] + 2.0)
        cprev = f32(C[o] / m)
        dprev = f32(D[o] / m)
        cps, dps = [cprev], [dprev]
        for o in idx[1:]:
            ak = A[o]
            m = f32(f32(B[o] + 2.0) - f32(ak * cprev))
            cprev = f32(C[o] / m)
            dprev = f32(f32(D[o] - f32(ak * dprev)) / m)
            cps.append(cprev)
            dps.append(dprev)
        xs = [0.0] * n
        xs[n - 1] = xn = dps[n - 1]
        for k in range(n - 2, -1, -1):
            xn = f32(dps[k] - f32(cps[k] * xn))
            xs[k] = xn
        for k, o in enumerate(idx):
            expect(CP[o] == cps[k], f"cp of system {t}, equation {k} = {CP[o]!r}, want {cps[k]!r}")
            expect(X[o] == xs[k], f"x of system {t}, equation {k} = {X[o]!r}, want {xs[k]!r}")
    return (f"{len(picked)} of {s} systems of {n} exact, c' and x "
            f"({'interleaved' if inter else 'contiguous'})")


def check_pcr(a, b, dfs):
    N = d(dfs, "N", 256)
    A, B, C, D, X = b["a"], b["b"], b["c"], b["d"], b["x"]
    systems = len(X) // N
    picked = sample(systems, {64: 200, 256: 48}.get(N, 12))
    for sys_ in picked:
        g = sys_ * N
        sa = [0.0] + [A[g + k] for k in range(1, N)]
        sb = [f32(B[g + k] + 2.0) for k in range(N)]
        sc = [C[g + k] for k in range(N - 1)] + [0.0]
        sd = [D[g + k] for k in range(N)]
        s = 1
        while s < N:
            na_, nb_, nc_, nd_ = [], [], [], []
            for k in range(N):
                ak, bk, ck, dk = sa[k], sb[k], sc[k], sd[k]
                an = cn = 0.0
                if k >= s:
                    k1 = f32(ak / sb[k - s])
                    an = f32(-sa[k - s] * k1)
                    bk = f32(bk - f32(sc[k - s] * k1))
                    dk = f32(dk - f32(sd[k - s] * k1))
                if k + s < N:
                    k2 = f32(ck / sb[k + s])
                    cn = f32(-sc[k + s] * k2)
                    bk = f32(bk - f32(sa[k + s] * k2))
                    dk = f32(dk - f32(sd[k + s] * k2))
                na_.append(an)
                nb_.append(bk)
                nc_.append(cn)
                nd_.append(dk)
            sa, sb, sc, sd = na_, nb_, nc_, nd_
            s <<= 1
        for k in range(N):
            want = f32(sd[k] / sb[k])
            expect(X[g + k] == want, f"x of system {sys_}, equation {k} = {X[g + k]!r}, want {want!r}")
    return f"{len(picked)} of {systems} systems of {N} exact, every unknown"


def check_unpack(a, b, dfs):
    n, B = a["n"], d(dfs, "B", 12)
    packed, out = b["packed"], b["out"]
    mask = (1 << B) - 1
    picked = sample(n, 300000)
    for i in picked:
        bit = i * B
        w, off = bit >> 5, bit & 31
        both = packed[w] | ((packed[w + 1] << 32) if w + 1 < len(packed) else 0)
        want = (both >> off) & mask
        expect(out[i] == want, f"out[{i}] = {out[i]:#x}, want {want:#x}")
    return f"{len(picked)} of {n} {B}-bit values exact"


def check_upper(a, b, dfs):
    n = a["n"]
    text, out = b["text"].tobytes(), b["out"].tobytes()
    want = text[:n].upper()  # bytes.upper() changes a..z alone
    if out[:n] != want:
        i = next(k for k in range(n) if out[k] != want[k])
        raise Fail(f"out[{i}] = {out[i]:#x}, want {want[i]:#x} (text {text[i]:#x})")
    lower = sum(text.count(bytes([c])) for c in range(ord("a"), ord("z") + 1))
    return f"all {n} bytes exact ({lower} lower-case letters; WIDTH {d(dfs, 'WIDTH', 4)})"


def check_divsqrt(a, b, dfs):
    n, fn = a["n"], d(dfs, "FN", 0)
    x, y = b["x"], b["y"]
    picked = sample(n, 100000)
    for i in picked:
        x0 = x[i]
        acc = 0.0
        for k in range(16):
            t = x0 + k * 0.015625
            if fn == 0:
                acc += 1.0 / (t + 0.25)
            elif fn == 1:
                acc += math.sqrt(t + 0.25)
            else:
                acc += math.sqrt(t + 0.25) / (t + 1.0)
        expect(y[i] == acc, f"y[{i}] = {y[i]!r}, want {acc!r}")
    return f"{len(picked)} of {n} sums of 16 terms exact ({('1 / t', 'sqrt', 'sqrt / t')[fn]})"


def philox4x32_10(c, k0, k1):
    c0, c1, c2, c3 = c
    for _ in range(10):
        p0 = 0xD2511F53 * c0
        p1 = 0xCD9E8D57 * c2
        c0, c1, c2, c3 = ((p1 >> 32) ^ c1 ^ k0, p1 & M32, (p0 >> 32) ^ c3 ^ k1, p0 & M32)
        k0 = (k0 + 0x9E3779B9) & M32
        k1 = (k1 + 0xBB67AE85) & M32
    return c0, c1, c2, c3


# Random123's known-answer vectors for philox4x32_10 (kat_vectors): counter, key, result.
PHILOX_KAT = (
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((M32, M32, M32, M32), (M32, M32), (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
)
S24 = 2.0 ** -24


def check_philox(a, b, dfs):
    n4, k0, k1, hi = a["n4"], a["key0"], a["key1"], a["seed_hi"]
    out = b["out"]
    variant = d(dfs, "OUT", 0)
    for ctr, key, want in PHILOX_KAT:
        expect(philox4x32_10(ctr, *key) == want, "the reference fails Random123's known answer")
    picked = sample(n4, 60000)
    for t in picked:
        w = philox4x32_10((t, 0, 0, hi), k0, k1)
        got = tuple(out[4 * t:4 * t + 4])
        if variant == 0:
            expect(got == w, f"words of counter {t} = {got}, want {w}")
            continue
        gotf = as_floats(got)
        if variant == 1:
            want = tuple((v >> 8) * S24 for v in w)
            expect(gotf == want, f"uniforms of counter {t} = {gotf}, want {want}")
            continue
        u = [((v >> 8) + 1) * S24 for v in w]
        for pair in range(2):
            r = math.sqrt(-2.0 * math.log(u[2 * pair]))
            ang = 2.0 * u[2 * pair + 1]
            want_c = r * math.sin(math.pi * f32(ang + 0.5))
            want_s = r * math.sin(math.pi * ang)
            close(gotf[2 * pair], want_c, 1e-5, 4e-6, f"normal {2 * pair} of counter {t}")
            close(gotf[2 * pair + 1], want_s, 1e-5, 4e-6, f"normal {2 * pair + 1} of counter {t}")
    what = ("raw words, exact", "uniform floats, exact", "Box-Muller normals, within tolerance")[variant]
    return f"{len(picked)} of {n4} counters ({what}); Random123 known answers reproduced"


def check_bigint(a, b, dfs):
    n, L = a["n"], d(dfs, "L", 16)
    A, B, out = b["a"].tobytes(), b["b"].tobytes(), b["out"].tobytes()
    picked = sample(n, 20000)
    for t in picked:
        x = int.from_bytes(A[4 * L * t:4 * L * (t + 1)], "little")
        y = int.from_bytes(B[4 * L * t:4 * L * (t + 1)], "little")
        got = int.from_bytes(out[8 * L * t:8 * L * (t + 1)], "little")
        expect(got == x * y, f"product {t} = {got:#x}, want {x * y:#x}")
    return f"{len(picked)} of {n} products of {32 * L}-bit numbers exact"


def check_poly(a, b, dfs):
    n, P = a["n"], d(dfs, "P", 64)
    px, py, vx, vy, inside = b["px"], b["py"], b["vx"], b["vy"], b["inside"]
    picked = sample(n, max(150, 1200000 // P))
    ins = 0
    for t in picked:
        x, y = px[t], py[t]
        c = 0
        xj, yj = vx[P - 1], vy[P - 1]
        for i in range(P):
            xi, yi = vx[i], vy[i]
            if (yi > y) != (yj > y):
                xc = f32(f32(f32(f32(xj - xi) * f32(y - yi)) / f32(yj - yi)) + xi)
                if x < xc:
                    c ^= 1
            xj, yj = xi, yi
        expect(inside[t] == c, f"inside[{t}] = {inside[t]}, want {c} (point {x!r}, {y!r})")
        ins += c
    return f"{len(picked)} of {n} points exact against {P} edges ({ins} inside)"


def check_counters(a, b, dfs):
    keys, out = b["keys"], b["out"]
    threads = len(out)
    picked = sample(threads, 20000)
    for t in picked:
        cnt = [0] * 16
        for k in range(64):
            cnt[keys[t + k * threads] >> 28] += 1
        want = sum(c * c for c in cnt)
        expect(out[t] == want, f"out[{t}] = {out[t]}, want {want}")
    return f"{len(picked)} of {threads} threads' counts exact (WHERE {d(dfs, 'WHERE', 0)})"


def check_bins(a, b, dfs):
    n, g, cap = a["n"], a["g"], a["cap"]
    x, y, count, bucket = b["x"], b["y"], b["count"], b["bucket"]
    members = [[] for _ in range(g * g)]
    fg = float(g)
    for i in range(n):
        cx = min(int(f32(x[i] * fg)), g - 1)
        cy = min(int(f32(y[i] * fg)), g - 1)
        members[cy * g + cx].append(i)
    fullest = max(len(m) for m in members)
    expect(fullest <= cap, f"a cell holds {fullest} particles, more than cap {cap}: the check assumes none overflows")
    for cell, m in enumerate(members):
        if count[cell] != len(m):
            raise Fail(f"count[{cell}] = {count[cell]}, want {len(m)}")
        got = bucket[cell * cap:cell * cap + len(m)]
        if sorted(got) != m:
            raise Fail(f"bucket of cell {cell} holds {sorted(got)[:8]}..., want {m[:8]}...")
    used = sum(1 for m in members if m)
    return f"all {g * g} cells' counts and buckets exact as sets ({used} used, fullest {fullest})"


def check_tanimoto(a, b, dfs):
    n, W = a["n"], d(dfs, "W", 16)
    db, q, sim = b["db"], b["query"], b["sim"]
    picked = sample(n, 40000)
    for t in picked:
        inter = uni = 0
        for k in range(W):
            f = db[t * W + k]
            inter += bin(f & q[k]).count("1")
            uni += bin(f | q[k]).count("1")
        want = f32(inter / uni)
        expect(sim[t] == want, f"sim[{t}] = {sim[t]!r}, want {want!r} ({inter} / {uni})")
    return f"{len(picked)} of {n} similarities exact ({32 * W}-bit fingerprints)"


def check_gcd(a, b, dfs):
    n = a["n"]
    A, B, out = b["a"], b["b"], b["out"]
    for i in range(n):
        want = math.gcd(A[i], B[i])
        if out[i] != want:
            raise Fail(f"out[{i}] = {out[i]}, want gcd({A[i]}, {B[i]}) = {want}")
    ones = sum(1 for v in out if v == 1)
    return f"all {n} GCDs exact ({ones} coprime pairs; ALG {d(dfs, 'ALG', 0)})"


def check_bitmap(a, b, dfs):
    n, thr = a["n"], f32(a["thr"])
    x, bits = b["x"], b["bits"]
    words = (n + 31) // 32
    set_ = 0
    for w in range(words):
        want = 0
        base = 32 * w
        for lane in range(min(32, n - base)):
            if x[base + lane] < thr:
                want |= 1 << lane
        if bits[w] != want:
            raise Fail(f"bits[{w}] = {bits[w]:#010x}, want {want:#010x}")
        set_ += bin(want).count("1")
    return f"all {words} words exact ({set_} of {n} bits set; ALG {d(dfs, 'ALG', 0)})"


CHECKS = {
    "merge_path.cu": check_merge,
    "thomas.cu": check_thomas,
    "pcr.cu": check_pcr,
    "bit_unpack.cu": check_unpack,
    "to_upper.cu": check_upper,
    "f64_divsqrt.cu": check_divsqrt,
    "philox.cu": check_philox,
    "bigint_mul.cu": check_bigint,
    "point_in_poly.cu": check_poly,
    "private_hist.cu": check_counters,
    "particle_bin.cu": check_bins,
    "tanimoto.cu": check_tanimoto,
    "gcd.cu": check_gcd,
    "bitmap_pack.cu": check_bitmap,
}

if __name__ == "__main__":
    main(__doc__, SET, CHECKS)
