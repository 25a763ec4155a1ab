#!/bin/bash
# Stop 19 device batch, run from the repo root on the GPU machine: bash .carry-bench/batch19.sh REPS
# 1. docs/validation/cuda-frontend-run.sh with this stop's main (issue 10).
# 2. warpsim-s18 (stop 18's main) and warpsim (this stop) alternated REPS times: bench in timing
#    mode on 1 and 2 host threads and in functional mode (the cost of this stop's IR changes).
set -u
C=.carry-bench
export LD_LIBRARY_PATH=$PWD/$C:${LD_LIBRARY_PATH:-}
mkdir -p build/tools && ln -sf ../../$C/warpsim build/tools/warpsim
nproc; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
sh docs/validation/cuda-frontend-run.sh > $OUT/cuda-frontend-h100.txt 2>&1; echo "run exit $?" >> $OUT/cuda-frontend-h100.txt
date
for i in $(seq 1 ${1:-2}); do
  for b in warpsim-s18 warpsim; do
    $C/$b bench --mode timing --threads 1,2 --format json >> $OUT/bench-timing-$b.jsonl 2>/dev/null
    $C/$b bench --mode functional --format json >> $OUT/bench-functional-$b.jsonl 2>/dev/null
  done
done
date
