#!/usr/bin/env bash
# What ran on the H100 (one device call, from .carry-calib/ with the portable warpsim beside it):
#   1. calibrate: the microbenchmarks, the fitted preset (frozen from here on), raw figures;
#   2. the held-out timing validation set (timing-set/set.txt), one JSON report per run.
set -u
out="${OUT:?}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/device.txt" 2>&1
LD_LIBRARY_PATH=. timeout 200 ./warpsim calibrate --backend cuda --threads 8 --out "$out/h100.ini" --save "$out/raw.json" \
  > "$out/calibrate.txt" 2>&1
echo "calibrate rc=$?" >> "$out/calibrate.txt"
LD_LIBRARY_PATH=. bash run-set.sh set-out
tar czf "$out/validation.tgz" set-out
