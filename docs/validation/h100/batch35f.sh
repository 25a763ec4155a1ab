#!/bin/bash
# Stop 35's sixth call: no GPU work. The device machine's cores replay the nine held-out sets with
# this commit's model: batch35b's with memory.l1_replay_cycles 1 (a bank-conflicted global load holds the LSU
# its passes and 1: batch35's stride-l1-s*; batch35e's floor of 3, withdrawn). Each report has
# 540 s, so the tarball comes back within the call's limit.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
r=$out/reports35f; mkdir -p $r
for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
         h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
  timeout 540 $C/warpsim timing-report tests/data/timing/$f.json --threads 2 \
    --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
done
wait
cd $out && tar czf reports35f.tgz reports35f && rm -rf reports35f
