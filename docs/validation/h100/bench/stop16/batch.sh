#!/bin/bash
# Device batch of 2026-11-23 (second session). Usage: bash .carry-bench/batch.sh calibrate|bench|validate
# Binaries (portable, Release): warpsim-A = main at dc34bfe (before this session), warpsim-B = ff10073
# (cache remainder without division, coalescer runs), warpsim-C = main HEAD (with the PTX front end merged).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(pwd)
export LD_LIBRARY_PATH=$here
case "$1" in
calibrate)
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$OUT/device.txt" 2>&1
  timeout 420 "$here/warpsim-A" calibrate --backend cuda --threads 8 --out "$OUT/h100.ini" --save "$OUT/raw.json" \
    > "$OUT/calibrate.txt" 2>&1
  echo "calibrate rc=$?" >> "$OUT/calibrate.txt"
  ;;
bench)
  lscpu | grep -E "Model name|^CPU\(s\)|MHz" > "$OUT/host.txt"
  for i in 1 2 3; do
    for b in A C; do
      "$here/warpsim-$b" bench --threads 1,2 --mode timing --format json | tr -d '\n' >> "$OUT/timing-$b.jsonl"; echo >> "$OUT/timing-$b.jsonl"
    done
  done
  for i in 1 2; do
    for b in A C; do
      "$here/warpsim-$b" bench --threads 1 --mode functional --reconvergence volta,ipdom --format json | tr -d '\n' >> "$OUT/functional-$b.jsonl"; echo >> "$OUT/functional-$b.jsonl"
    done
  done
  ;;
validate)
  # Issue 12 (scenario files on the GPU), issue 10 (the CUDA front end), issue 13 (SASS of the corpus).
  mkdir -p build/tools && cp "$here/warpsim-C" build/tools/warpsim
  sh docs/validation/h100/scenario-files-run.sh > /dev/null 2>&1; cp docs/validation/h100/scenario-files.txt "$OUT/"
  sh docs/validation/cuda-frontend-run.sh > "$OUT/cuda-frontend.txt" 2>&1
  # Issue 13 follow-up (conv branch's script: recordings of ctl-two-exit-loop and ctl-spin-wait, SASS).
  sh "$here/h100_reconvergence_followup.sh" "$OUT/followup" > "$OUT/followup.log" 2>&1
  echo "followup rc=$?" >> "$OUT/followup.log"
  tar czf "$OUT/followup.tgz" -C "$OUT" followup && rm -rf "$OUT/followup"
  ;;
esac
