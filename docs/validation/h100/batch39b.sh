#!/bin/bash
# Stop 39's second call: no GPU work. The device machine's cores replay the nine held-out sets with
# this commit's model and the h100 preset plus memory.l2_side_copies = 1 (.carry/h100-copies.ini:
# the L2's two halves keep their own copies of the lines their SMs read; batch39a.sh's map and
# gathers), to keep or withdraw it.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
r=$out/reports39b; mkdir -p $r
for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
         h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
  timeout 540 $C/warpsim timing-report tests/data/timing/$f.json --threads 2 --gpu $C/h100-copies.ini \
    --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
done
wait
cd $out && tar czf reports39b.tgz reports39b && rm -rf reports39b
