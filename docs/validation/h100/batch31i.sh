#!/bin/bash
# Stop 31's ninth call (batch31d.sh again, the line gaps for requests that are not scattered only): no GPU work. The device machine's 16 cores replay the nine held-out sets
# through the simulator (`warpsim timing-report`, the model of this commit, carried in .carry/), the
# same command as on a laptop, nine at once: reports and plots in reports31i.tgz.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
r=$out/reports31i; mkdir -p $r
for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
         h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
  $C/warpsim timing-report tests/data/timing/$f.json --threads 2 --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
done
wait
cd $out && tar czf reports31i.tgz reports31i && rm -rf reports31i
