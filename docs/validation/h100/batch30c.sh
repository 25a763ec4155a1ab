#!/bin/bash
# Stop 30's third H100 call, from the repository root with the portable build of this commit in
# .carry/ (docs/validation/h100.md): the new stride-store-l2 microbenchmark (stride_store4: one word
# of 32 lines 256 bytes apart a warp request, all in one 8 KiB span) beside scatter-l2 and
# scatter-sector-l2 (the same footprint, scattered), twice.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
for k in 1 2; do
  $W calibrate --backend cuda --gpu-name h100 --benches stride-store-l2,scatter-l2,scatter-sector-l2 --passes 1 \
    --save $out/raw30c-$k.json --out $out/h100-30c-$k.ini > $out/calibrate30c-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate30c-$k.txt
done
