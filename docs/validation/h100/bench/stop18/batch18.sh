#!/bin/bash
# Stop 18 device batch, run from the repo root on the GPU machine:
#   bash .carry-bench/batch18.sh REPS
# A = warpsim-base (53f1333, stop 17's base), C = warpsim (this stop's main), alternated REPS times:
# the timing mode on 1 and 2 host threads (issue 7), the functional mode under volta and ipdom (issue 13).
# Then yield_probe.sh (issue 13: SASS listing and a softmax_row recording).
set -u
C=.carry-bench
export LD_LIBRARY_PATH=$PWD/$C:${LD_LIBRARY_PATH:-}
mkdir -p build/tools && ln -sf ../../$C/warpsim build/tools/warpsim
nproc; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; lscpu | grep -i "model name"
for i in $(seq 1 ${1:-4}); do
  for b in warpsim-base warpsim; do
    $C/$b bench --mode timing --threads 1,2 --format json >> $OUT/bench-timing-$b.jsonl 2>/dev/null
    $C/$b bench --mode functional --reconvergence volta,ipdom --format json >> $OUT/bench-functional-$b.jsonl 2>/dev/null
  done
done
date
sh docs/validation/h100/reconvergence/yield_probe.sh $OUT/yield-probe > $OUT/yield-probe.log 2>&1; echo "yield_probe exit $?" >> $OUT/yield-probe.log
ls -la $OUT $OUT/yield-probe
