#!/bin/bash
# Stop 21's fifth H100 call, from the repository root, the portable build in .carry/warpsim: the
# if-conversion microbenchmark (skip-body-32) beside tree-step-16 and the barrier it contains
# (bar-16), and the SASS ptxas makes of it.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
$C/warpsim calibrate --backend cuda --threads 8 --benches launch,skip-body-32,tree-step-16,bar-16 \
  --save $out/raw-skip.json --out $out/h100-skip.ini > $out/calibrate-skip.txt 2>&1
echo "calibrate rc=$?" >> $out/calibrate-skip.txt
$C/warpsim emit-cuda kernels/microbench/mb_sync.kir > $out/mb_sync.cu 2>&1 &&
  nvcc -arch=sm_90 -cubin -o mb_sync.cubin $out/mb_sync.cu > $out/nvcc.txt 2>&1 &&
  cuobjdump -sass -fun skip_body mb_sync.cubin > $out/skip_body-plain.sass 2>&1
rm -f mb_sync.cubin $out/mb_sync.cu
