#!/bin/bash
# Stop 36's second call: no GPU work. The device machine's cores replay the nine held-out sets with
# this commit's model: sm.lower_int64 1 (64-bit integer arithmetic as ptxas lowers it) and the int64
# class refitted at full width (batch36.sh: interval 2, latency 5). Each report has
# 540 s, so the tarball comes back within the call's limit.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
r=$out/reports36b; mkdir -p $r
for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
         h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
  timeout 540 $C/warpsim timing-report tests/data/timing/$f.json --threads 2 \
    --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
done
wait
cd $out && tar czf reports36b.tgz reports36b && rm -rf reports36b
