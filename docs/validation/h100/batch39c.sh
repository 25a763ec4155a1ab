#!/bin/bash
# Stop 39's third call: no GPU work. The device machine's cores replay the nine held-out sets with
# this commit's model and the h100 preset plus memory.write_back_at_eviction = 1 and
# memory.l2_store_byte_cost = 1.9 (.carry/h100-wb.ini: a dirty line is written back when it leaves
# the L2; a stored byte takes 1.9 of the L2's bandwidth, bw-store-16m), to keep or withdraw it.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
r=$out/reports39c; mkdir -p $r
for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
         h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
  timeout 540 $C/warpsim timing-report tests/data/timing/$f.json --threads 2 --gpu $C/h100-wb.ini \
    --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
done
wait
cd $out && tar czf reports39c.tgz reports39c && rm -rf reports39c
