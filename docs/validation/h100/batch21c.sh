#!/bin/bash
# Stop 21's second H100 call, from the repository root: .carry/warpsim is the portable build of
# main after this stop's timing changes (8ca8ad9 plus the one-thread path), .carry/warpsim-base the
# one of 55ffd3d (stop 20).
#   1. (issue 8) the SASS ptxas makes of the textbook kernels the model misses (plain emit-cuda,
#      nvcc -cubin -arch=sm_90, cuobjdump -sass), beside the seven of docs/validation/h100/sass/;
#   2. (issue 7) warpsim bench, base and final alternated REPS times: timing mode on 1 and 2 host
#      threads, functional mode on 1.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
mkdir -p build/tools && ln -sf $C/warpsim build/tools/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
lscpu | grep -E "Model name|^CPU\(s\)" >> $out/device.txt
mkdir -p sass
for name in reduce_coarsened matmul_naive matmul_tiled gray_coarsened strided_copy vecadd_coarsened bank_conflicts \
    reduce_last_block; do
  [ -f kernels/$name.kir ] || continue
  $C/warpsim emit-cuda kernels/$name.kir > sass/$name.cu 2>> sass/errors.txt &&
    nvcc -arch=sm_90 -cubin -o sass/$name.cubin sass/$name.cu 2>> sass/errors.txt &&
    cuobjdump -sass sass/$name.cubin > sass/$name-plain.sass 2>> sass/errors.txt
  rm -f sass/$name.cubin sass/$name.cu
done
tar czf $out/sass21.tgz sass
date >> $out/device.txt
for i in $(seq 1 ${1:-3}); do
  for b in warpsim-base warpsim; do
    $C/$b bench --mode timing --threads 1,2 --format json >> $out/bench-timing-$b.jsonl 2>/dev/null
    $C/$b bench --mode functional --format json >> $out/bench-functional-$b.jsonl 2>/dev/null
  done
done
date >> $out/device.txt
