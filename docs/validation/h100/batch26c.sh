#!/bin/bash
# Stop 26's third H100 call, from the repository root with the portable build in .carry/: two more
# microbenchmarks for set26's misses, twice each, compared only, with SASS:
#   - compares and selects (lat-/tput-cmp: setp and selp, ISETP and SEL on the INT pipe; collatz, -41%
#     with the logic class, issues five ISETP a trip);
#   - many pointer chases at once (chase-lanes-w1, -w4, -sm66-w4: each thread its own chain, each warp
#     load 32 scattered lines; chase-small ran about 1,030 cycles a hop on 1 to 66 blocks of 128
#     threads where one thread's chase-dram takes 677), beside chase-dram.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
for i in 1 2; do
  timeout 250 $W calibrate --backend cuda --threads 16 --gpu-name h100 \
    --benches lat-cmp,tput-cmp,lat-logic,tput-logic,chase-dram,chase-lanes-w1,chase-lanes-w4,chase-lanes-sm66-w4 \
    --save $out/raw26c-$i.json --out $out/h100-26c-$i.ini > $out/calibrate26c-$i.txt 2>&1
  echo "calibrate rc=$?" >> $out/calibrate26c-$i.txt
done
q=$out/sass; mkdir -p $q
for k in mb_chain_cmp mb_chain_logic; do
  $W emit-cuda kernels/microbench/$k.kir > /tmp/$k.cu 2> $q/$k.err &&
    nvcc -arch=sm_90 -cubin -o /tmp/$k.cubin /tmp/$k.cu >> $q/$k.err 2>&1 &&
    cuobjdump -sass /tmp/$k.cubin > $q/$k.sass 2>&1
done
date >> $out/device.txt
cd $out && tar czf sass-c.tgz sass && rm -rf sass && tar czf raw26c.tgz raw26c-*.json h100-26c-*.ini && rm -f raw26c-*.json h100-26c-*.ini
