#!/bin/bash
# Stop 25's fourth H100 call: the new bits class (popc, clz, brev; set25's hash64 -27/-53% issues
# ten POPC and five FLO every four rounds): lat-bits and tput-bits (mb_chain_bits.kir: popc and clz
# alternating), twice, with the chain's SASS; lat-int and tput-int beside them.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
for i in 1 2; do
  timeout 100 $W calibrate --backend cuda --threads 16 --gpu-name h100 --benches launch,lat-int,tput-int,lat-bits,tput-bits \
    --save $out/raw25d-$i.json --out $out/h100-25d-$i.ini > $out/calibrate25d-$i.txt 2>&1
  echo "calibrate rc=$?" >> $out/calibrate25d-$i.txt
done
$W emit-cuda kernels/microbench/mb_chain_bits.kir > /tmp/bits.cu 2> $out/bits.err &&
  nvcc -arch=sm_90 -cubin -o /tmp/bits.cubin /tmp/bits.cu >> $out/bits.err 2>&1 &&
  cuobjdump -sass /tmp/bits.cubin > $out/mb_chain_bits.sass 2>&1
cd $out && tar czf raw25d.tgz raw25d-*.json h100-25d-*.ini mb_chain_bits.sass bits.err && rm -f raw25d-*.json h100-25d-*.ini mb_chain_bits.sass bits.err
