#!/bin/bash
# Stop 25's third H100 call: lat-imul64 and tput-imul64 again, their chain now `mad.u64 x, x, x, wm`
# with both halves of x consumed (batch25b.sh's `mul.u64 x, x, wm` chain, whose result only its low
# half reached, compiled to 32-bit IMADs by x * wm^16: sass-b.tgz), twice, with the chain's SASS.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
for i in 1 2; do
  timeout 100 $W calibrate --backend cuda --threads 16 --gpu-name h100 --benches launch,lat-imul,tput-imul,lat-imul64,tput-imul64 \
    --save $out/raw25c-$i.json --out $out/h100-25c-$i.ini > $out/calibrate25c-$i.txt 2>&1
  echo "calibrate rc=$?" >> $out/calibrate25c-$i.txt
done
$W emit-cuda kernels/microbench/mb_chain_imul64.kir > /tmp/imul64.cu 2> $out/imul64.err &&
  nvcc -arch=sm_90 -cubin -o /tmp/imul64.cubin /tmp/imul64.cu >> $out/imul64.err 2>&1 &&
  cuobjdump -sass /tmp/imul64.cubin > $out/mb_chain_imul64.sass 2>&1
cd $out && tar czf raw25c.tgz raw25c-*.json h100-25c-*.ini mb_chain_imul64.sass imul64.err && rm -f raw25c-*.json h100-25c-*.ini mb_chain_imul64.sass imul64.err
