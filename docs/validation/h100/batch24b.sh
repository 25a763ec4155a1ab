#!/bin/bash
# Stop 24's second H100 call (after set24's blind score), from the repository root with the portable
# build in .carry/: the microbenchmarks its misses call for, measured and saved (raw24b.json), with
# their SASS: u32 hot atomics with and without the returned value (compact: +130%), uniform loads
# (conv1d), and a DRAM stream on 16 warps an SM (l2norm_warp: -58%); atom-hot and bw-dram-mlp4
# again in the same call, for comparison. (As run; load-uniform-32 was taken out of the suite
# afterwards: its SASS, sass-b.tgz, keeps one LDG, before the loop: the compiler removed the loop's
# loads, so its 39.6 cycles a step measure nothing of uniform loads.)
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
for i in 1 2; do
  timeout 200 $W calibrate --backend cuda --threads 16 --gpu-name h100 \
    --benches launch,atom-hot,atom-hot-u32,atom-hot-u32-ret,load-uniform-32,bw-dram-mlp4,bw-dram-mlp4-w16,dram-loaded-w16,atom-global-1 \
    --save $out/raw24b-$i.json --out $out/h100-24b-$i.ini > $out/calibrate24b-$i.txt 2>&1
  echo "calibrate rc=$?" >> $out/calibrate24b-$i.txt
done
q=$out/sass; mkdir -p $q
$W emit-cuda kernels/microbench/mb_sync.kir > /tmp/mb_sync.cu 2> $q/mb_sync.err &&
  nvcc -arch=sm_90 -cubin -o /tmp/mb_sync.cubin /tmp/mb_sync.cu >> $q/mb_sync.err 2>&1
for f in atom_stream atom_stream_u32 load_uniform; do cuobjdump -sass -fun $f /tmp/mb_sync.cubin > $q/$f.sass 2>&1; done
nvcc -arch=sm_90 -cubin -o /tmp/conv1d.cubin tests/data/cuda/heldout24/conv1d.cu > $q/conv1d.err 2>&1
date >> $out/device.txt
cd $out && tar czf sass-b.tgz sass && rm -rf sass
