#!/bin/bash
# Stop 29's fourth H100 call, after the third (batch29c.sh): set29's f64-divsqrt FN=0 divides 1.0 by
# its term, which NVVM writes as rcp.rn.f64 and ptxas expands into a shorter DFMA sequence than a
# division (its SASS: 93 DFMA and 18 MUFU for 16 reciprocals); the new microbenchmarks of that
# reciprocal (mb_chain_drcp.kir), with ddiv's beside them, twice; packed into raw29d.tgz.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
for i in 1 2; do
  timeout 200 $W calibrate --backend cuda --threads 16 --gpu-name h100 \
    --benches lat-drcp,tput-drcp,lat-ddiv,tput-ddiv \
    --save $out/raw29d-$i.json --out $out/h100-29d-$i.ini > $out/calibrate29d-$i.txt 2>&1
  echo "calibrate rc=$?" >> $out/calibrate29d-$i.txt
done
date >> $out/device.txt
cd $out && tar czf raw29d.tgz raw29d-*.json h100-29d-*.ini calibrate29d-*.txt && rm -f raw29d-*.json h100-29d-*.ini
