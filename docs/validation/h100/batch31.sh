#!/bin/bash
# Stop 31's H100 call, from the repository root with the portable build of this commit in .carry/
# (docs/validation/h100.md). Three questions from the held-out misses (docs/validation/timing.md):
# 1. What a `membar.gl` costs (reduce-last-block -44%: one store, fence and atomic ticket a block):
#    the new microbenchmarks fence-gl, fence-gl-store, fence-gl-ticket and fence-gl-busy, twice,
#    with the SASS of mb_sync.kir's and reduce_last_block.kir's emitted CUDA (nvcc -cubin, sm_90).
# 2. What an SM's L1 serves for 32-line requests from 4 warps an SM (set29's thomas over contiguous
#    systems -44%): gather-l1-few and stride-store-l2-few beside gather-l1 and stride-store-l2.
# 3. Nsight Compute's stall, occupancy and memory figures of the whole-sum pair (reduce-full,
#    reduce-last-block at 2^22), set25's block-size7 at 256, 512 and 1,024 threads (the H100 slower
#    with bigger blocks, the model faster: 4 reversals) and reg-occupancy (2 reversals). None of these
#    runs is new: each was scored before. ncu skips the three warm-ups and profiles the first timed
#    launch (--cache-control all, --clock-control none).
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
T=docs/validation/h100/timing-set
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
s=$out/sass31; mkdir -p $s
for k in kernels/microbench/mb_sync.kir kernels/reduce_last_block.kir kernels/reduce_fig5_15.kir; do
  b=$(basename $k .kir)
  $W emit-cuda $k > $s/$b.cu 2> $s/$b.err
  nvcc -cubin -arch=sm_90 -O3 -o $s/$b.cubin $s/$b.cu >> $s/$b.err 2>&1 && cuobjdump -sass $s/$b.cubin > $s/$b.sass 2>&1
  rm -f $s/$b.cubin
done
B=fence-gl,fence-gl-store,fence-gl-ticket,fence-gl-busy,gather-l1,gather-l1-few,stride-store-l2,stride-store-l2-few
for k in 1 2; do
  $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw31-$k.json --out $out/h100-31-$k.ini > $out/calibrate31-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate31-$k.txt
done
nc=$out/ncu31; mkdir -p $nc
secs="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section InstructionStats --section SourceCounters"
prof() {  # NAME SKIP COUNT ARGS...: launches SKIP to SKIP + COUNT - 1 of `warpsim run ARGS`
  local name=$1 skip=$2 count=$3; shift 3
  echo "$name|$*" >> $nc/index.txt
  timeout 50 ncu --csv --page details --cache-control all --clock-control none $secs --launch-skip $skip --launch-count $count \
    $W run "$@" --backend cuda --gpu-trace off > $nc/$name.csv 2> $nc/$name.err
  echo "rc=$?" >> $nc/$name.err
}
# The scenarios: every launch of the first run (reduce-full's three, reduce-last-block's one).
prof reduce-full 0 3 reduce-full --set n=4194304
prof reduce-last-block 0 1 reduce-last-block --set n=4194304
for idx in 29 30 31 34 35 36; do
  line=$(grep -v '^#' $T/set25.txt | grep -v '^$' | sed -n ${idx}p)
  # shellcheck disable=SC2086
  prof "$(echo "$line" | cut -d'|' -f1)-$idx" 3 1 $(echo "$line" | cut -d'|' -f2)
done
cd $out && tar czf ncu31.tgz ncu31 sass31 device.txt && rm -rf ncu31 sass31
