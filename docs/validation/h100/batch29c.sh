#!/bin/bash
# Stop 29's third H100 call, after set29's blind score (f64-divsqrt -47/-66/-65%: f64 div and sqrt
# were timed as f32's), from the repository root with the portable build in .carry/: the new
# dependent-chain and throughput microbenchmarks of f64 div and sqrt (mb_chain_ddiv.kir,
# mb_chain_dsqrt.kir), with fdiv, sfu and fp64 beside them, twice; raw figures and calibrate's
# preset packed into raw29c.tgz.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
for i in 1 2; do
  timeout 200 $W calibrate --backend cuda --threads 16 --gpu-name h100 \
    --benches lat-ddiv,tput-ddiv,lat-dsqrt,tput-dsqrt,lat-fdiv,tput-fdiv,lat-sfu,tput-sfu,lat-fp64,tput-fp64 \
    --save $out/raw29c-$i.json --out $out/h100-29c-$i.ini > $out/calibrate29c-$i.txt 2>&1
  echo "calibrate rc=$?" >> $out/calibrate29c-$i.txt
done
date >> $out/device.txt
cd $out && tar czf raw29c.tgz raw29c-*.json h100-29c-*.ini calibrate29c-*.txt && rm -f raw29c-*.json h100-29c-*.ini
