#!/usr/bin/env python3
"""Puts a stop's re-measured runs into the sets' timing data.

    python3 docs/validation/h100/timing-set/remeasure.py STOP   (from the repository root)

STOP 27: the CUDA emitter's shared pointers changed (cuda/emitter.cpp, docs/validation/timing.md):
the 44 runs whose emitted code changed were measured again (batch27b.sh, h100/stop27b/). STOP 28: the
emitter's vector accesses (24 runs, batch28b.sh, h100/stop28b/). For each run, the data file's
kernel_ms and kernel_ms_range become the new figures, launch_us the new session's launch overhead (the
median of its four `calibrate --benches launch`), and the replaced figures stay beside them as
kernel_ms_before_stopSTOP (not read by timing-report). Run once; a second run finds nothing to do."""
import glob
import json
import os
import statistics
import sys
import tarfile

ROOT = os.getcwd()
NUMBER = sys.argv[1] if len(sys.argv) > 1 else "27"
WHY = {"27": "the emitter's shared pointers", "28": "the emitter's vector accesses"}[NUMBER]
STOP = os.path.join(ROOT, f"docs/validation/h100/stop{NUMBER}b")
FILES = {"set": "h100-validation.json", **{f"set{n}": f"h100-validation-stop{n}.json" for n in range(22, 29)}}

launch = []
with tarfile.open(os.path.join(STOP, f"raw{NUMBER}b.tgz")) as t:
    for m in t.getmembers():
        if m.name.startswith(f"raw{NUMBER}b-") and m.name.endswith(".json"):
            raw = json.load(t.extractfile(m))
            launch.append(raw.get("figures", raw)["launch"])
launch_us = statistics.median(launch)
runs = {}
with tarfile.open(os.path.join(STOP, "remeasure.tgz")) as t:
    index = t.extractfile("remeasure/index.txt").read().decode().splitlines()
    for line in index:
        n, family, args, rc = line.split("|")
        if rc != "rc=0":
            raise SystemExit(f"{n}: {rc}")
        report = json.load(t.extractfile(f"remeasure/{n}.json"))
        runs[(n.rsplit("-", 1)[0], args)] = report["launches"]
changed = 0
for key, name in FILES.items():
    path = os.path.join(ROOT, "tests/data/timing", name)
    data = json.load(open(path))
    for k in data["kernels"]:
        launches = runs.pop((key, k["args"]), None)
        if launches is None or f"kernel_ms_before_stop{NUMBER}" in k:
            continue
        k[f"kernel_ms_before_stop{NUMBER}"] = k["kernel_ms"]
        k["kernel_ms"] = [l["kernel_ms"] for l in launches]
        k["kernel_ms_range"] = [l["kernel_ms_range"] for l in launches]
        k["launch_us"] = launch_us
        k["compiled_registers"] = [l["compiled_registers"] for l in launches]
        k["remeasured"] = f"stop {NUMBER} (batch{NUMBER}b.sh): {WHY}"
        changed += 1
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
if runs:
    raise SystemExit(f"runs not found in any data file: {sorted(runs)}")
print(f"{changed} runs re-measured, launch_us {launch_us:.3f} (of {sorted(launch)})")
