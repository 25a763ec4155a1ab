#!/bin/bash
# Stop 32's first H100 call (portable build of this commit in .carry/; docs/validation/h100.md).
# 1. New microbenchmarks, twice: the L1's capacity with no shared memory (chase-l1-128k..256k: one
#    thread's random chase over the footprint, warmed by one pass) and the L2's (chase-l2-16m..40m),
#    for set24's l2norm_warp on 2,048 rows of 4,096 floats (each warp reads its 16 KiB row twice, 16
#    warps an SM: -58%); integer atomics of one lane a line over 32, 128 and 1,024 consecutive lines
#    and 32 lines 64 KiB apart (atom-lines-u32-*), for set22's histogram over 1,024 bins (-55%).
# 2. Nsight Compute of those runs and of set28's stencil3d marching up 256^3 (-51%) and set26's
#    bsearch with a 6,144-key stage (-45%), with the shared-memory configuration the driver chose,
#    the caches' hit rates and every stall reason; the SASS of l2norm_warp and stencil3d (MARCH=1).
#    None of these runs is new: each was scored before.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
T=docs/validation/h100/timing-set
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
B=chase-l1,chase-l1-128k,chase-l1-192k,chase-l1-224k,chase-l1-256k,chase-l2,chase-l2-16m,chase-l2-24m,chase-l2-32m,chase-l2-40m
B=$B,atom-lines-u32-c32,atom-lines-u32-c128,atom-lines-u32-c1024,atom-lines-u32-s64k,atom-lanes-u32-d32,atom-hot-u32
for k in 1 2; do
  $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw32-$k.json --out $out/h100-32-$k.ini > $out/calibrate32-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate32-$k.txt
done
s=$out/sass32; mkdir -p $s
nvcc -cubin -arch=sm_90 -O3 -o $s/l2norm_warp.cubin tests/data/cuda/heldout24/l2norm_warp.cu > $s/err.txt 2>&1
nvcc -cubin -arch=sm_90 -O3 -DMARCH=1 -o $s/stencil3d.cubin tests/data/cuda/heldout28/stencil3d.cu >> $s/err.txt 2>&1
nvcc -cubin -arch=sm_90 -O3 -o $s/histo_global.cubin tests/data/cuda/heldout/histo_global.cu >> $s/err.txt 2>&1
for b in l2norm_warp stencil3d histo_global; do cuobjdump -sass $s/$b.cubin > $s/$b.sass 2>&1; rm -f $s/$b.cubin; done
nc=$out/ncu32; mkdir -p $nc
secs="--section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables"
stalls="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
prof() {  # NAME KERNEL SET INDEX: line INDEX (not counting comments) of timing-set/SET.txt
  local name=$1 kern=$2 set=$3 idx=$4
  local line; line=$(grep -v '^#' $T/$set.txt | grep -v '^$' | sed -n ${idx}p)
  echo "$name|$line" >> $nc/index.txt
  # shellcheck disable=SC2046
  timeout 90 ncu --csv --page details --cache-control all --clock-control none $secs --metrics "$stalls" \
    -k $kern --launch-skip 0 --launch-count 1 \
    $W run $(echo "$line" | cut -d'|' -f2) --backend cuda --gpu-trace off > $nc/$name.csv 2> $nc/$name.err
  echo "rc=$?" >> $nc/$name.err
}
prof l2norm-warp-2048 l2norm_warp set24 23
prof l2norm-warp-32768 l2norm_warp set24 22
prof stencil3d-march-256 stencil3d set28 38
prof stencil3d-march-512 stencil3d set28 39
prof histo-32 histo_global set22 17
prof histo-1024 histo_global set22 18
prof histo-1m histo_global set22 19
prof bsearch-6144 bsearch_stage set26 23
prof bsearch-512 bsearch_stage set26 22
cd $out && tar czf ncu32.tgz ncu32 sass32 && rm -rf ncu32 sass32
