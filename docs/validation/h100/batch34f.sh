#!/bin/bash
# Stop 34's sixth H100 call (after the model's figures were final; compared-only microbenchmarks
# for the next stop): where a whole line's extra round trip arises. One warp's random chase reading
# 1, 8, 16, 24 or 32 words of each line, from DRAM (chase-dram-lanes*, cold) and from L2
# (chase-l2-lanes*, 4 MiB warmed), beside chase-dram and chase-l2; twice each.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
B=chase-dram,chase-dram-lanes1,chase-dram-lanes8,chase-dram-lanes16,chase-dram-lanes24,chase-dram-lanes32
B=$B,chase-l2,chase-l2-lanes1,chase-l2-lanes8,chase-l2-lanes32
for k in 1 2; do
  timeout 200 $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw34f-$k.json --out $out/h100-34f-$k.ini > $out/calibrate34f-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate34f-$k.txt
done
