#!/bin/bash
# Stop 25's second H100 call (after set25's blind score), from the repository root with the portable
# build in .carry/: the microbenchmarks two of set25's misses call for, twice each, with their SASS:
# 64-bit multiplies (hash64 -27/-53%: mul.lo.u64 is IMAD.WIDE.U32 and two IMAD in its SASS; the new
# imul64 class) and shared-load throughput without conflicts and as broadcasts (matmul-rect -45..-61%);
# lat-imul, tput-imul and tput-shared-s32 beside them for comparison, and launch.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
for i in 1 2; do
  timeout 200 $W calibrate --backend cuda --threads 16 --gpu-name h100 \
    --benches launch,lat-imul,tput-imul,lat-imul64,tput-imul64,tput-shared-s1,tput-shared-bcast,tput-shared-s32,chase-shared-s1 \
    --save $out/raw25b-$i.json --out $out/h100-25b-$i.ini > $out/calibrate25b-$i.txt 2>&1
  echo "calibrate rc=$?" >> $out/calibrate25b-$i.txt
done
q=$out/sass; mkdir -p $q
$W emit-cuda kernels/microbench/mb_chain_imul64.kir > /tmp/imul64.cu 2> $q/imul64.err &&
  nvcc -arch=sm_90 -cubin -o /tmp/imul64.cubin /tmp/imul64.cu >> $q/imul64.err 2>&1 &&
  cuobjdump -sass /tmp/imul64.cubin > $q/mb_chain_imul64.sass 2>&1
$W emit-cuda kernels/microbench/mb_memory.kir > /tmp/mb_memory.cu 2> $q/mb_memory.err &&
  nvcc -arch=sm_90 -cubin -o /tmp/mb_memory.cubin /tmp/mb_memory.cu >> $q/mb_memory.err 2>&1 &&
  cuobjdump -sass -fun shared_tput /tmp/mb_memory.cubin > $q/shared_tput.sass 2>&1
date >> $out/device.txt
cd $out && tar czf sass-b.tgz sass && rm -rf sass && tar czf raw25b.tgz raw25b-*.json h100-25b-*.ini && rm -f raw25b-*.json h100-25b-*.ini
