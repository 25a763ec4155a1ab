#!/bin/bash
# Stop 26's second H100 call (after set26's blind score), from the repository root with the portable
# build in .carry/: microbenchmarks for three of set26's misses, twice each, compared only, with SASS:
#   - integer atomics of many lanes on one line (atomic-agg per thread +148%: 8 u32 keys of one line):
#     atom-lanes-u32-d32, -m4, -m32, beside atom-line and atom-line-m4 (f32) and atom-hot-u32;
#   - pointer chases past chase-dram's 64 MiB (chase-small -17..-33%, bsearch-occupancy -20..-47%):
#     chase-dram-16m, -128m, -512m beside chase-dram;
#   - the integer pipe (collatz -50%): lat-/tput-int32sx (u32 shr and xor) beside lat-/tput-int and
#     the 64-bit chains; the SASS of mb_chain_int, int64, int32sx and int64sx shows what ptxas issues.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
for i in 1 2; do
  timeout 250 $W calibrate --backend cuda --threads 16 --gpu-name h100 \
    --benches atom-lanes-u32-d32,atom-lanes-u32-m4,atom-lanes-u32-m32,atom-line,atom-line-m4,atom-hot-u32,atom-hot,chase-dram,chase-dram-16m,chase-dram-128m,chase-dram-512m,lat-int,tput-int,lat-int32sx,tput-int32sx,lat-int64,tput-int64,lat-int64sx,tput-int64sx \
    --save $out/raw26b-$i.json --out $out/h100-26b-$i.ini > $out/calibrate26b-$i.txt 2>&1
  echo "calibrate rc=$?" >> $out/calibrate26b-$i.txt
done
date >> $out/device.txt
q=$out/sass; mkdir -p $q
for k in mb_chain_int mb_chain_int64 mb_chain_int32sx mb_sync; do
  $W emit-cuda kernels/microbench/$k.kir > /tmp/$k.cu 2> $q/$k.err &&
    nvcc -arch=sm_90 -cubin -o /tmp/$k.cubin /tmp/$k.cu >> $q/$k.err 2>&1 &&
    cuobjdump -sass /tmp/$k.cubin > $q/$k.sass 2>&1
done
date >> $out/device.txt
cd $out && tar czf sass-b.tgz sass && rm -rf sass && tar czf raw26b.tgz raw26b-*.json h100-26b-*.ini && rm -f raw26b-*.json h100-26b-*.ini
