#!/bin/bash
# Stop 21's third H100 call, from the repository root, the portable build in .carry/warpsim: the
# store microbenchmarks (bw-store-16m, bw-store-256m: does the L2 keep a kernel's stores, or send
# them to DRAM as they come?) beside launch, bw-dram-mlp4 and bw-l2-rotate of the same session.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
$C/warpsim calibrate --backend cuda --threads 8 --benches launch,bw-dram-mlp4,bw-l2-rotate,bw-store-16m,bw-store-256m,bw-store-half-16m \
  --save $out/raw-store.json --out $out/h100-store.ini > $out/calibrate-store.txt 2>&1
echo "calibrate rc=$?" >> $out/calibrate-store.txt
