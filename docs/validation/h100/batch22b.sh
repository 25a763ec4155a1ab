#!/bin/bash
# Stop 22's second H100 call, from the repository root, the portable build in .carry/ (the working
# tree after the first call: the atomics microbenchmarks added): calibrate, compared only, on the
# global-atomic microbenchmarks (atom-hot, atom-spread, atom-line, atom-line-m4) beside the older
# ones, launch and skip-shared-32 again (a second reading), and the SASS of atom_stream.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
timeout 300 $W calibrate --backend cuda --threads 8 \
  --benches launch,atom-hot,atom-spread,atom-line,atom-line-m4,atom-global-1,atom-global-same32,atom-global-distinct32,atom-global-tput,skip-shared-32,skip-body-32,tree-step-16 \
  --save $out/raw22b.json --out $out/h100-22b.ini > $out/calibrate22b.txt 2>&1
echo "calibrate rc=$?" >> $out/calibrate22b.txt
date >> $out/device.txt
$W emit-cuda kernels/microbench/mb_sync.kir > /tmp/mb_sync.cu 2> $out/emit.err &&
  nvcc -arch=sm_90 -cubin -o /tmp/mb_sync.cubin /tmp/mb_sync.cu >> $out/emit.err 2>&1 &&
  cuobjdump -sass -fun atom_stream /tmp/mb_sync.cubin > $out/atom_stream.sass 2>&1
