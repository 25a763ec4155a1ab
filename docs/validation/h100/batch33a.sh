#!/bin/bash
# Stop 33's second call (no batching across a barrier, the folded L1 index, the shares' bursts: 442c17a): no GPU work. The device machine's 16 cores replay the nine held-out sets
# through the simulator (`warpsim timing-report`, the model of this commit, carried in .carry/), the
# same command as on a laptop, nine at once: reports and plots in reports33a.tgz.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
r=$out/reports33a; mkdir -p $r
for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
         h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
  $C/warpsim timing-report tests/data/timing/$f.json --threads 2 --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
done
wait
cd $out && tar czf reports33a.tgz reports33a && rm -rf reports33a
