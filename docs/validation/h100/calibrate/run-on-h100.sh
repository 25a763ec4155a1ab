#!/usr/bin/env bash
# For the lead to run on the H100 (issue 8, second calibration). Needs the portable warpsim of this
# branch beside it (LD_LIBRARY_PATH=. as in ../calibrate-run.sh). It measures the whole suite once
# more, so raw figures of the microbenchmarks added since the first run exist:
#   bw-dram-mlp4   DRAM bandwidth with four loads in flight per thread (fits memory.dram_bytes_per_cycle;
#                  bw-dram, one load in flight per warp, is latency-bound and now only compared)
# and re-measures the rest (their spread between the two runs is the run-to-run noise to quote).
# Then on this machine: copy raw.json over docs/validation/h100/calibrate/raw.json and run
#   warpsim calibrate --replay docs/validation/h100/calibrate/raw.json --gpu-name h100 --threads 2 \
#     --out docs/validation/h100/calibrate/h100.ini
# and diff the fitted values against sim/presets/h100.ini (docs/validation/timing.md, "Calibrate").
set -u
out="${OUT:?}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/device.txt" 2>&1
LD_LIBRARY_PATH=. timeout 400 ./warpsim calibrate --backend cuda --threads 8 --out "$out/h100.ini" --save "$out/raw.json" \
  > "$out/calibrate.txt" 2>&1
echo "calibrate rc=$?" >> "$out/calibrate.txt"
