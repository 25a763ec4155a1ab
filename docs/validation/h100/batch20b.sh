#!/bin/bash
# Stop 20's second H100 call, from the repository root, the portable build of main after the merges
# in .carry/warpsim and the one before the speed branch in .carry/warpsim-base:
#   1. (issue 10) docs/validation/cuda-frontend-run.sh: every .cu kernel validated, the three new
#      textbook ones included;
#   2. (issue 8) calibrate's DRAM access-unit microbenchmarks (bw-dram-s8, -s32) beside launch and
#      bw-dram-mlp4 of the same session;
#   3. (issue 7) warpsim bench, base and new alternated REPS times, timing mode on 1 and 2 host
#      threads, functional mode on 1.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
mkdir -p build/tools && ln -sf $C/warpsim build/tools/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
lscpu | grep -E "Model name|^CPU\(s\)" >> $out/device.txt
sh docs/validation/cuda-frontend-run.sh > $out/cuda-frontend-h100.txt 2>&1
echo "run exit $?" >> $out/cuda-frontend-h100.txt
$C/warpsim calibrate --backend cuda --benches launch,bw-dram-mlp4,bw-dram-s8,bw-dram-s32 --save $out/raw-dram.json \
  > $out/calibrate-dram.txt 2>&1
echo "calibrate rc=$?" >> $out/calibrate-dram.txt
for i in $(seq 1 ${1:-3}); do
  for b in warpsim-base warpsim; do
    $C/$b bench --mode timing --threads 1,2 --format json >> $out/bench-timing-$b.jsonl 2>/dev/null
    $C/$b bench --mode functional --format json >> $out/bench-functional-$b.jsonl 2>/dev/null
  done
done
date >> $out/device.txt
