#!/bin/bash
# Stop 36's first call (portable build of this commit in .carry/; the lent GPU is an H200, the same
# GH100 SM as the H100). The int64 chain regenerated at full width (both halves of every operand
# unknown to the compiler, both halves of the result stored: kernels/microbench/generate.py): until
# stop 35 ptxas made its chain 32-bit, so lat-int64/tput-int64 measured 32-bit adds and xors. Beside
# it, for reference on this GPU, the int, logic and logic64 chains; twice each. Then the SASS of the
# regenerated chain.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
B=lat-int64,tput-int64,lat-logic64,tput-logic64,lat-int,tput-int,lat-logic,tput-logic,lat-imul64,tput-imul64
for k in 1 2; do
  timeout 200 $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw36-$k.json --out $out/h100-36-$k.ini > $out/calibrate36-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate36-$k.txt
done
s=$out/sass36; mkdir -p $s
$W emit-cuda kernels/microbench/mb_chain_int64.kir > $s/mb_chain_int64.cu 2> $s/err.txt
nvcc -cubin -arch=sm_90 -O3 -o $s/mb_chain_int64.cubin $s/mb_chain_int64.cu >> $s/err.txt 2>&1
for f in lat_int64 tput_int64; do cuobjdump -sass -fun $f $s/mb_chain_int64.cubin > $s/$f.sass 2>&1; done
rm -f $s/mb_chain_int64.cubin
cd $out && tar czf sass36.tgz sass36 && rm -rf sass36
