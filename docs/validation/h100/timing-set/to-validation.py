#!/usr/bin/env python3
"""Turns the H100 run reports of the validation set (set-out/, batch20.sh) into the data file that
`warpsim timing-report` replays: tests/data/timing/h100-validation.json.

usage: to-validation.py SET_OUT_DIR RAW_JSON OLD_VALIDATION_JSON > NEW_VALIDATION_JSON
RAW_JSON is calibrate's raw figures of the same session (its `launch`, the empty kernel's time
measured the same way, is subtracted from every launch); OLD_VALIDATION_JSON gives the "ci" marks
of runs it already had (new runs are not in the CI subset)."""
import json
import os
import sys

out_dir, raw_path, old_path = sys.argv[1:4]
raw = json.load(open(raw_path))
figures = raw.get("figures", raw)
launch_us = figures["launch"]
old = {k["args"]: k.get("ci", False) for k in json.load(open(old_path))["kernels"]}
kernels = []
for line in open(os.path.join(out_dir, "index.txt")):
    n, family, args, rc = line.rstrip("\n").split("|")
    path = os.path.join(out_dir, n + ".json")
    if rc != "rc=0":
        print(f"skipped {n} ({args}): {rc}", file=sys.stderr)
        continue
    report = json.load(open(path))
    launches = report["launches"]
    kernels.append({
        "family": family,
        "args": args,
        "kernel_ms": [l["kernel_ms"] for l in launches],
        "kernel_ms_range": [l.get("kernel_ms_range", [l["kernel_ms"], l["kernel_ms"]]) for l in launches],
        "ci": old.get(args, False),
    })
json.dump({
    "device": raw.get("device", ""),
    "launch_us": launch_us,
    "floor_us": 2.0,
    "l2_start": "flushed",
    "how": ("docs/validation/h100/batch20.sh: warpsim run ARGS --backend cuda --format json; kernel_ms per launch "
            "(median of 10 after 3 warm-ups), each launch queued behind a kernel that evicts the L2 "
            "(cuda/gpu.cpp flush_l2); launch_us is calibrate's empty kernel measured the same way, subtracted"),
    "kernels": kernels,
}, sys.stdout, indent=1)
print()
