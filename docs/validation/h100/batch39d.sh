#!/bin/bash
# Stop 39's fourth call (two H200s' host, 32 cores): no GPU work. The cores replay the nine held-out
# sets with this commit's model and the h100 preset plus memory.write_back_at_eviction = 1 and
# memory.l2_dirty_ways = 4 or 5 (.carry/h100-wb-d4.ini, -d5.ini: a dirty line is written back when it
# leaves the L2, or when its set holds more dirty lines than that; Nsight Compute on the H200, cold
# L2: reg_window R=8 wrote 3.5 of its 25 MB to DRAM, red-black 4096^2 49.6 of 64: batch39a.sh),
# to keep or withdraw them.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
for d in 4 5; do
  r=$out/reports39d-$d; mkdir -p $r
  for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
           h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
    timeout 560 $C/warpsim timing-report tests/data/timing/$f.json --threads 2 --gpu $C/h100-wb-d$d.ini \
      --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
  done
done
wait
cd $out && tar czf reports39d.tgz reports39d-4 reports39d-5 && rm -rf reports39d-4 reports39d-5
