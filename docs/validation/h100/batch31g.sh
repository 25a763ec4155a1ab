#!/bin/bash
# Stop 31's seventh H100 call (portable build of this commit in .carry/), twice each:
# 1. stride_chase (new): one warp's dependent loads of 32 new lines a step that lie in a few DRAM
#    pages, lanes 256 bytes apart (32 passes of one bank) or 128, from L2 (warmed) or DRAM (cold)
#    (stride-chase-l2, -l2-s32, -dram; set29's thomas over contiguous systems at n=64, -32%), beside
#    chase-l2, chase-dram and chase-lanes-w1; and from L1 with lanes 256 or 132 bytes apart
#    (stride-chase-l1, -l1-s33: is chase-lanes-l1's cost the bank's passes or the lines?).
# 2. store-lines-s33-w4 (new): store-lines-w4 with lanes 132 bytes apart (32 lines, 32 banks): is a
#    store's cost its passes or its lines?
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
B=stride-chase-l2,stride-chase-l2-s32,stride-chase-dram,stride-chase-l1,stride-chase-l1-s33,chase-l1,chase-lanes-l1,chase-l2,chase-dram,chase-lanes-w1,store-lines-w4,store-lines-s33-w4
for k in 1 2; do
  $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw31g-$k.json --out $out/h100-31g-$k.ini > $out/calibrate31g-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate31g-$k.txt
done
