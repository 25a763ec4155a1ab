#!/bin/bash
# Stop 33's sixth H100 call (after the note's figures were final; compared-only microbenchmarks for
# the next stop): where dram-loaded-w2's extra round trip comes from. dram-loaded-w2 (2 warps on
# each SM) against the same 2 warps on one SM (dram-loaded-w2-sm1), and chase-dram against one
# thread on each of the 132 SMs chasing its own chain (chase-lanes-sm132-t1); twice each.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
B=chase-dram,chase-lanes-sm132-t1,dram-loaded-w2,dram-loaded-w2-sm1
for k in 1 2; do
  $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw33e-$k.json --out $out/h100-33e-$k.ini > $out/calibrate33e-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate33e-$k.txt
done
