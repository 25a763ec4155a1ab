#!/usr/bin/env python3
"""Warp instructions issued, the H100 against the model, for every run of the held-out sets whose
kernel has an IEEE division, reciprocal or square root (stop 30, sm.slow_path_slots):

    python3 docs/validation/h100/stop30/issued.py build/tools/warpsim > docs/validation/h100/stop30/issued.txt

The H100's figures are Nsight Compute's smsp__inst_issued.sum (batch30b.sh, ncu30b.tgz); the model's
are the issue slots of `warpsim run ... -f json` (launches[0].timing.stalls.issued) with
sm.slow_path_slots 1 and 9. "matching slots" is the value at which the model's total would equal the
GPU's, linear between the two (nan where no slow path issued)."""
import csv, io, json, os, shlex, statistics, subprocess, sys, tarfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.abspath(os.path.join(here, "../../../.."))
warpsim = sys.argv[1]
gpu = {}
with tarfile.open(os.path.join(here, "ncu30b.tgz")) as t:
    for m in t.getmembers():
        if m.name.endswith(".csv"):
            for r in csv.reader(io.StringIO(t.extractfile(m).read().decode())):
                if len(r) > 14 and r[12] == "smsp__inst_issued.sum":
                    gpu[os.path.basename(m.name)[:-4]] = float(r[14].replace(",", ""))
runs = []
for line in open(os.path.join(here, "slowpath-runs.txt")):
    if not line.startswith("#") and line.strip():
        runs.append(line.rstrip("\n").split("|", 2))
e1, e9 = [], []
print("| run | kernel | H100 (M) | model, 1 slot (M) | model, 9 slots (M) | matching slots |")
print("| --- | --- | --- | --- | --- | --- |")
for name, kernel, args in runs:
    issued = {}
    for slots in (1, 9):
        cmd = [warpsim, "run", *shlex.split(args), "--threads", "2", "--l2-start", "flushed", "--gpu-set",
               f"sm.slow_path_slots={slots}", "-f", "json"]
        r = json.loads(subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=True).stdout)
        issued[slots] = r["launches"][0]["timing"]["stalls"]["issued"]
    g, a, b = gpu[name], issued[1], issued[9]
    e1.append(abs(a / g - 1))
    e9.append(abs(b / g - 1))
    match = f"{1 + (g - a) / ((b - a) / 8):.1f}" if b != a else "nan"
    print(f"| {name} | {kernel} | {g / 1e6:.2f} | {a / 1e6:.2f} ({a / g - 1:+.1%}) | {b / 1e6:.2f} ({b / g - 1:+.1%}) | {match} |")
print(f"\nOver the {len(e1)} runs the model's issue slots are off the H100's by {statistics.mean(e1):.1%} "
      f"(mean absolute) with 1 slot a slow path and {statistics.mean(e9):.1%} with 9.")
