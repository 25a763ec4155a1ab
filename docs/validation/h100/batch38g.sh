#!/bin/bash
# Stop 38's seventh call: no GPU work. The device machine's cores replay the nine held-out sets
# with this commit's model (sm.unroll_remainder 1 after its review: a trip past the last whole group
# of sm.unroll starts when the one before has its loads; within a trip loads still batch), to keep or withdraw it.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
r=$out/reports38g; mkdir -p $r
for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
         h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
  timeout 540 $C/warpsim timing-report tests/data/timing/$f.json --threads 2 \
    --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
done
wait
cd $out && tar czf reports38g.tgz reports38g && rm -rf reports38g
