#!/bin/bash
# Stop 27's first H100 call, from the repository root with the portable build of this commit in
# .carry/ (docs/validation/h100.md): Nsight Compute's stall reasons, pipe utilisation and memory
# figures for the worst misses of the six scored held-out sets (docs/validation/timing.md), plus two
# runs the model gets right as controls. None of these runs is new: all six sets were scored before.
# Each run is `warpsim run ... --backend cuda --gpu-trace off` (warmups 3, then repeats): ncu skips
# the three warm-ups and profiles the first timed launch, every counter pass from one cache state
# (--cache-control all), at the GPU's own clocks (--clock-control none).
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
T=docs/validation/h100/timing-set
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
nc=$out/ncu27; mkdir -p $nc
secs="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section InstructionStats"
# name SETFILE INDEX (INDEX: the line's number among the file's run lines)
while read -r name set idx; do
  args=$(grep -v '^#' $T/$set | grep -v '^$' | sed -n ${idx}p | cut -d'|' -f2)
  echo "$name|$set|$idx|$args" >> $nc/index.txt
  # shellcheck disable=SC2086
  timeout 150 ncu --csv --page details --cache-control all --clock-control none $secs --launch-skip 3 --launch-count 1 \
    $W run $args --backend cuda --gpu-trace off > $nc/$name.csv 2> $nc/$name.err
  echo "rc=$?" >> $nc/$name.err
done <<'LIST'
matmul-rect-rm1 set25.txt 4
matmul-rect-rm4 set25.txt 6
l2norm-warp-4096 set24.txt 23
bfs-256 set22.txt 36
histo-1024 set22.txt 18
bsearch-6144 set26.txt 23
hash64-16 set25.txt 25
whole-sum-4m set.txt 19
conv1d-r4 set24.txt 18
atomic-agg-block set26.txt 21
spmv-65536 set22.txt 27
chase-66 set26.txt 42
dct8x8-4096 set25.txt 8
reduce-u64-warp set25.txt 17
layernorm-512 set26.txt 39
rgb2lab-1080 set26.txt 25
luma-1 set26.txt 5
reduce-algo-2 set26.txt 3
LIST
date >> $out/device.txt
cd $out && tar czf ncu27.tgz ncu27 && rm -rf ncu27
