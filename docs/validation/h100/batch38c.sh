#!/bin/bash
# Stop 38's third device call (portable build of this commit in .carry/; an H200, 60 MiB of L2).
# batch38a/b found that a gather from every SM (or from any half of them that a %smid rule picks)
# over 32 MiB reads about twice the footprint from DRAM: it finds about half the L2. Two questions:
# does one SM's chase keep lines past the L2's bytes when it reads one sector of each (chase-l2-48m,
# -64m, -96m beside -24m/-32m/-40m), and does a gather from 4 warps an SM find more of it
# (gather-l2-32m-few beside gather-l2-32m)? Twice each, with Nsight Compute's DRAM bytes for the
# two gathers.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv > $out/device.txt 2>&1
B=chase-l2-24m,chase-l2-32m,chase-l2-40m,chase-l2-48m,chase-l2-64m,chase-l2-96m,gather-l2-32m,gather-l2-32m-few,gather-l2-16m
for k in 1 2; do
  timeout 240 $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 0 \
    --save $out/raw38c-$k.json > $out/calibrate38c-$k.txt 2>&1
  echo "rc=$? at ${SECONDS}s" >> $out/calibrate38c-$k.txt
done
m="dram__bytes_read.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum"
for b in gather-l2-32m gather-l2-32m-few; do
  timeout 120 ncu --csv --page raw --clock-control none --metrics "$m" -k gather_hash4 \
    $W calibrate --backend cuda --gpu-name h100 --benches $b --passes 0 > $out/ncu38c-$b.csv 2>&1
done
