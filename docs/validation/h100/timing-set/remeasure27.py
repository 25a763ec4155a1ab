#!/usr/bin/env python3
"""Puts stop 27's re-measured runs (batch27b.sh, h100/stop27b/) into the six sets' timing data.

    python3 docs/validation/h100/timing-set/remeasure27.py   (from the repository root)

The CUDA emitter's shared pointers changed at stop 27 (cuda/emitter.cpp, docs/validation/timing.md):
the 44 runs whose emitted code changed were measured again. For each, the data file's kernel_ms and
kernel_ms_range become the new figures, launch_us the new session's launch overhead (the median of
its four `calibrate --benches launch`), and the replaced figures stay beside them as
kernel_ms_before_stop27 (not read by timing-report). Run once; a second run finds nothing to do."""
import glob
import json
import os
import statistics
import tarfile

ROOT = os.getcwd()
STOP = os.path.join(ROOT, "docs/validation/h100/stop27b")
FILES = {"set": "h100-validation.json", "set22": "h100-validation-stop22.json", "set23": "h100-validation-stop23.json",
         "set24": "h100-validation-stop24.json", "set25": "h100-validation-stop25.json",
         "set26": "h100-validation-stop26.json"}

launch = []
with tarfile.open(os.path.join(STOP, "raw27b.tgz")) as t:
    for m in t.getmembers():
        if m.name.startswith("raw27b-") and m.name.endswith(".json"):
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
        if launches is None or "kernel_ms_before_stop27" in k:
            continue
        k["kernel_ms_before_stop27"] = k["kernel_ms"]
        k["kernel_ms"] = [l["kernel_ms"] for l in launches]
        k["kernel_ms_range"] = [l["kernel_ms_range"] for l in launches]
        k["launch_us"] = launch_us
        k["compiled_registers"] = [l["compiled_registers"] for l in launches]
        k["remeasured"] = "stop 27 (batch27b.sh): the emitter's shared pointers"
        changed += 1
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
if runs:
    raise SystemExit(f"runs not found in any data file: {sorted(runs)}")
print(f"{changed} runs re-measured, launch_us {launch_us:.3f} (of {sorted(launch)})")
