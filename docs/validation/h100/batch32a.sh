#!/bin/bash
# Stop 32's second call (the carve-out and far L2 hits, 05f4bef): no GPU work. The device machine's 16 cores replay the nine held-out sets
# through the simulator (`warpsim timing-report`, the model of this commit, carried in .carry/), the
# same command as on a laptop, nine at once: reports and plots in reports32a.tgz.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
r=$out/reports32a; mkdir -p $r
for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
         h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
  $C/warpsim timing-report tests/data/timing/$f.json --threads 2 --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
done
wait
cd $out && tar czf reports32a.tgz reports32a && rm -rf reports32a
