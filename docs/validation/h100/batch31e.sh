#!/bin/bash
# Stop 31's fifth H100 call (portable build of this commit in .carry/), twice each:
# 1. Back-to-back stores from few warps (store_lines, new): one word of 32 lines 256 bytes apart a
#    warp store (store-lines-w1, -w4, -w16 on one SM, -sm132-w4 on every SM) or of one line
#    (store-line-w1, -w4), beside stride-store-l2-few (5.3 cycles an element with 4 warps an SM,
#    4.7 with 64: batch31.sh).
# 2. A fence amid a DRAM stream (fence_loaded, new): fence-gl-stream.
# And the SASS of the new kernels (the emitted CUDA, nvcc -cubin, sm_90).
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
s=$out/sass31e; mkdir -p $s
for k in kernels/microbench/mb_memory.kir kernels/microbench/mb_sync.kir; do
  b=$(basename $k .kir)
  $W emit-cuda $k > $s/$b.cu 2> $s/$b.err
  nvcc -cubin -arch=sm_90 -O3 -o $s/$b.cubin $s/$b.cu >> $s/$b.err 2>&1 && cuobjdump -sass $s/$b.cubin > $s/$b.sass 2>&1
  rm -f $s/$b.cubin
done
B=store-lines-w1,store-lines-w4,store-lines-w16,store-lines-sm132-w4,store-line-w1,store-line-w4,stride-store-l2-few,fence-gl-stream
for k in 1 2; do
  $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw31e-$k.json --out $out/h100-31e-$k.ini > $out/calibrate31e-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate31e-$k.txt
done
cd $out && tar czf sass31e.tgz sass31e && rm -rf sass31e
