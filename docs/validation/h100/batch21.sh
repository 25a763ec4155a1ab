#!/bin/bash
# Stop 21 on the H100, one device call from the repository root. .carry/ holds three portable
# builds (cmake -DWARPSIM_PORTABLE=ON, docs/validation/h100.md) with libfmt/libspdlog:
#   warpsim-base  main at 55ffd3d (SMs stepped in contiguous halves on two host threads);
#   warpsim       interleaved SMs (thread t steps SMs t, t + 2, ...) and the new microbenchmarks;
#   warpsim-steal the same, a thread that finishes its SMs first helping with the other's.
# Steps:
#   1. (issue 8) calibrate: the DRAM round trip at 2-64 warps per SM (dram-loaded-w*), L2 bandwidth
#      (bw-l2-rotate), beside launch, bw-dram, bw-dram-mlp4 and chase-dram of the same session;
#   2. (issue 8) Nsight Compute's warp-state, scheduler, occupancy and memory sections on the
#      kernels the model misses most (the barrier-bound reductions, the coarsened loop, matmul,
#      scan, grey), to compare where their cycles go with the model's stall breakdown;
#   3. (issue 7) warpsim bench, the three builds alternated REPS times, timing mode, 1 and 2 threads.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
mkdir -p build/tools && ln -sf $W build/tools/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
lscpu | grep -E "Model name|^CPU\(s\)" >> $out/device.txt
date >> $out/device.txt
timeout 240 $W calibrate --backend cuda --threads 8 \
  --benches launch,chase-dram,bw-dram,bw-dram-mlp4,dram-loaded-w2,dram-loaded-w8,dram-loaded-w16,dram-loaded-w32,dram-loaded-w64,bw-l2-rotate,bw-l2 \
  --save $out/raw-loaded.json --out $out/h100-loaded.ini > $out/calibrate-loaded.txt 2>&1
echo "calibrate rc=$?" >> $out/calibrate-loaded.txt
date >> $out/device.txt
# (The ncu step as it ran, in a second call of the same session: the first left its reports out of
# what came back, too many files, and had passed --warps default.)
mkdir -p ncu
while IFS='|' read -r name kernel args; do
  # shellcheck disable=SC2086
  timeout 120 ncu --cache-control all --clock-control none --section SpeedOfLight --section Occupancy \
    --section SchedulerStats --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats \
    -k $kernel --launch-skip 3 --launch-count 1 $W run $args --backend cuda --warps 0 > ncu/$name.txt 2>&1
  echo "rc=$?" >> ncu/$name.txt
done <<'LIST'
fig5-15-2e24|reduce_fig5_15|reduce-fig5-15 --set n=16777216 --set block=512
fig5-13-2e24|reduce_fig5_13|reduce-fig5-13 --set n=16777216 --set block=512
ece408-improved-2e24|reduce_ece408_improved|reduce-ece408-improved --set n=16777216 --set block=512
coarsened-16|reduce_coarsened|reduce-coarsened --set n=4194304 --set coarse=16
coarsened-1|reduce_coarsened|reduce-coarsened --set n=4194304 --set coarse=1
matmul-naive-256|matmul_naive|matmul-naive --set rows=256 --set inner=256 --set cols=256
scan|scan_kogge_stone|tests/data/cuda/scan_kogge_stone.cu --grid 16384 --block 256 --arg n=4194304 --buffer x=f32[4194304]:random --buffer y=f32[4194304]:zeros
gray-1920|gray|gray --set width=1920 --set height=1080
vecadd-2e24|vecadd|vecadd --set n=16777216 --set block=256
LIST
tar czf $out/ncu21.tgz ncu
date >> $out/device.txt
for i in $(seq 1 ${1:-3}); do
  for b in warpsim-base warpsim warpsim-steal; do
    $C/$b bench --mode timing --threads 1,2 --format json >> $out/bench-timing-$b.jsonl 2>/dev/null
  done
done
date >> $out/device.txt
