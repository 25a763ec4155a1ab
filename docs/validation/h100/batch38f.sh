#!/bin/bash
# Stop 38's sixth call: no GPU work. The device machine's cores replay the nine held-out sets
# with this commit's model (sm.unroll_remainder 1: a counted loop's trips past its last whole group
# of 4 load one at a time, as ptxas's remainder loop does), to keep or withdraw it.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
r=$out/reports38f; mkdir -p $r
for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
         h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
  timeout 540 $C/warpsim timing-report tests/data/timing/$f.json --threads 2 \
    --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
done
wait
cd $out && tar czf reports38f.tgz reports38f && rm -rf reports38f
