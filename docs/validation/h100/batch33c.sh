#!/bin/bash
# Stop 33's fourth H100 call (batch33b.sh's replay ran past the 600 s limit and its reports were
# lost; its microbenchmarks came back: h100/stop33/calibrate33b-*). One warp's chase of random DRAM
# lines reading one sector, two or the whole line (chase-dram-lanes8/16/32), twice, beside
# chase-dram and dram-loaded-w2: dram-loaded-w2's line a warp takes about 801 cycles a load, the
# model 745, chase-dram's 8 bytes 689 on both.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
B=chase-dram,chase-dram-lanes8,chase-dram-lanes16,chase-dram-lanes32,dram-loaded-w2
for k in 1 2; do
  $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw33c-$k.json --out $out/h100-33c-$k.ini > $out/calibrate33c-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate33c-$k.txt
done
