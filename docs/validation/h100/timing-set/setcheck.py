"""What check-set23.py and check-set24.py share: running a held-out set's lines on the simulator in
functional mode with every buffer dumped, reading the dumps back, and calling the set's host
reference for each kernel. Stdlib only."""

import os
import random
import shlex
import struct
import subprocess
import sys
import tempfile
import time
from array import array

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))

TYPECODES = {"u8": "B", "s8": "b", "u16": "H", "s16": "h", "u32": "I", "s32": "i", "u64": "Q", "s64": "q",
             "f32": "f", "f64": "d"}

_f32 = struct.Struct("<f")


def f32(v):
    """v rounded to the nearest f32 (v a double: a double result of +, -, *, / or sqrt of f32 values,
    rounded again to f32, is the correctly rounded f32 result, since 53 >= 2 * 24 + 2)."""
    return _f32.unpack(_f32.pack(v))[0]


def literal(text):
    """An --arg value: an integer (decimal or hex), a float, or an f32 bit pattern 0fXXXXXXXX."""
    if text.startswith("0f") and len(text) == 10:
        return struct.unpack("<f", bytes.fromhex(text[2:])[::-1])[0]
    try:
        return int(text, 0)
    except ValueError:
        return float(text)


def sample(count, k=20000, seed=23):
    """Sorted distinct indices of 0..count-1: all when count <= k, else the first and last 16 and a
    fixed pseudo-random sample."""
    if count <= k:
        return range(count)
    rng = random.Random(seed)
    picked = set(range(16)) | set(range(count - 16, count)) | set(rng.sample(range(count), k))
    return sorted(picked)


class Fail(Exception):
    pass


def expect(cond, message):
    if not cond:
        raise Fail(message)


def close(got, want, rel, abs_tol, what):
    if not (abs(got - want) <= abs_tol + rel * abs(want)):
        raise Fail(f"{what}: got {got!r}, want {want!r} (tolerance {abs_tol} + {rel} * |want|)")


def parse(argv):
    """The --arg values, the --buffer names and types and the -D defines of one line's arguments."""
    args, buffers, defines = {}, {}, {}
    it = iter(argv)
    for word in it:
        if word == "--arg":
            name, value = next(it).split("=", 1)
            args[name] = literal(value)
        elif word == "--buffer":
            name, spec = next(it).split("=", 1)
            buffers[name] = spec.split("[", 1)[0]
        elif word == "--nvcc-opt":
            opt = next(it)
            if opt.startswith("-D"):
                name, _, value = opt[2:].partition("=")
                defines[name] = value or "1"
    return args, buffers, defines


def run_line(warpsim, checks, argv, tmp):
    """Runs one line; calls checks[kernel file name](args, buffers, defines)."""
    kernel = os.path.basename(argv[0])
    check = checks.get(kernel)
    if check is None:
        raise Fail(f"no reference for {kernel}")
    args, types, defines = parse(argv)
    dumps = []
    for name in types:
        dumps += ["--dump", f"{name}={os.path.join(tmp, name + '.bin')}"]
    cmd = [warpsim, "run"] + argv + ["--mode", "functional"] + dumps
    proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise Fail(f"warpsim exit {proc.returncode}: {(proc.stderr or proc.stdout).strip()[-400:]}")
    bufs = {}
    for name, type_name in types.items():
        arr = array(TYPECODES[type_name])
        path = os.path.join(tmp, name + ".bin")
        with open(path, "rb") as f:
            arr.frombytes(f.read())
        if sys.byteorder != "little":
            arr.byteswap()
        os.remove(path)
        bufs[name] = arr
    return check(args, bufs, defines)


def main(doc, set_path, checks):
    """`python3 check-setNN.py WARPSIM [SUBSTRING...]`: one PASS/FAIL line per run of set_path (or of
    those holding a SUBSTRING); exits 1 if any failed."""
    if len(sys.argv) < 2:
        sys.exit(doc)
    warpsim = os.path.abspath(sys.argv[1])
    only = sys.argv[2:]
    lines = []
    with open(set_path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#") and (not only or any(s in line for s in only)):
                family, cmd = line.split("|", 1)
                lines.append((family, cmd))
    failed = 0
    prefix = os.path.splitext(os.path.basename(set_path))[0]
    with tempfile.TemporaryDirectory(prefix=f"check-{prefix}-") as tmp:
        for family, cmd in lines:
            label = f"{family}|{cmd}"
            start = time.time()
            try:
                summary = run_line(warpsim, checks, shlex.split(cmd), tmp)
                print(f"PASS {label}  [{summary}; {time.time() - start:.1f} s]", flush=True)
            except Fail as e:
                failed += 1
                print(f"FAIL {label}  [{e}; {time.time() - start:.1f} s]", flush=True)
    print(f"{len(lines) - failed} of {len(lines)} runs PASS" + (f", {failed} FAIL" if failed else ""))
    sys.exit(1 if failed else 0)
