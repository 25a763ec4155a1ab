#!/bin/bash
# Stop 35's fifth call: no GPU work. The device machine's cores replay the nine held-out sets with
# this commit's model: batch35b's with memory.l1_request_cycles 3 and l1_replay_cycles 1 (a global
# load holds the LSU at least 3 cycles, a conflicted one its passes and 1: batch35d's pipe-*, batch35's stride-l1-s*). Each report has
# 540 s, so the tarball comes back within the call's limit.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
r=$out/reports35e; mkdir -p $r
for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
         h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
  timeout 540 $C/warpsim timing-report tests/data/timing/$f.json --threads 2 \
    --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
done
wait
cd $out && tar czf reports35e.tgz reports35e && rm -rf reports35e
