#!/bin/bash
# Stop 39's fifth call: no GPU work. The device machine's cores replay the nine held-out sets with
# this commit's model and preset (memory.write_back_at_eviction 1, l2_dirty_ways 5, with the review's
# corrections: a store marks every sector it writes dirty at the merge, atomics wait for the DRAM
# backlog too, the merge reads and write-backs are queued after the refunds).
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
r=$out/reports39e; mkdir -p $r
for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
         h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
  timeout 540 $C/warpsim timing-report tests/data/timing/$f.json --threads 2 \
    --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
done
wait
cd $out && tar czf reports39e.tgz reports39e && rm -rf reports39e
