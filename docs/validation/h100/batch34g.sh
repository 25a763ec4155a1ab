#!/bin/bash
# Stop 34's seventh H100 call (after the model's figures were final; compared-only microbenchmarks
# for the next stop): the stream's round trip with one, two and four warps on one SM
# (dram-loaded-w1/-w2/-w4-sm1-u32), beside chase-dram and chase-dram-lanes32; twice each.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
B=chase-dram,chase-dram-lanes32,dram-loaded-w1-sm1-u32,dram-loaded-w2-sm1-u32,dram-loaded-w4-sm1-u32,dram-loaded-w2-sm1
for k in 1 2; do
  timeout 200 $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw34g-$k.json --out $out/h100-34g-$k.ini > $out/calibrate34g-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate34g-$k.txt
done
