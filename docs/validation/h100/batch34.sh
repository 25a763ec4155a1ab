#!/bin/bash
# Stop 34's first H100 call (portable build of this commit in .carry/; docs/validation/h100.md).
# New compared-only microbenchmarks, twice each (tools/calibrate/suite_lifetime.cpp, suite.cpp):
# 1. dram-loaded-w2's round trip piece by piece: one thread's chase through f32 word indices
#    (chase-dram-f32), over consecutive lines (chase-dram-seq, -seq-f32), and the two-warp stream
#    with u32 words and no cvt (dram-loaded-w2-sm1-u32), beside chase-dram and dram-loaded-w2-sm1.
# 2. A block's lifetime against its size, for set25's block-size7 (stencil7_smem slower with 512
#    and 1,024-thread blocks on the H100, faster in the model): lifetime-*, dispatch-256,
#    dispatch-bar-*, beside dispatch-64 and dispatch-1024.
# 3. Integer atomics over 32 lines at the strides between stop 32/33's (atom-lines-u32-c64..s32k).
# 4. Nsight Compute of stencil7_smem at 256 and 1,024-thread blocks (set25, scored before): stall
#    reasons, occupancy, launch statistics.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
T=docs/validation/h100/timing-set
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
B=chase-dram,chase-dram-f32,chase-dram-seq,chase-dram-seq-f32,chase-dram-lanes32,dram-loaded-w2-sm1,dram-loaded-w2-sm1-u32
B=$B,dispatch-64,dispatch-256,dispatch-1024,dispatch-bar-256,dispatch-bar-1024
B=$B,lifetime-bar-b128,lifetime-bar-b256,lifetime-bar-b512,lifetime-bar-b1024,lifetime-nobar-b256,lifetime-nobar-b1024
B=$B,lifetime-l2-bar-b256,lifetime-l2-bar-b1024
B=$B,atom-lines-u32-c32,atom-lines-u32-c64,atom-lines-u32-c256,atom-lines-u32-s512,atom-lines-u32-s2k,atom-lines-u32-s8k,atom-lines-u32-s32k
for k in 1 2; do
  timeout 200 $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw34-$k.json --out $out/h100-34-$k.ini > $out/calibrate34-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate34-$k.txt
done
nc=$out/ncu34; mkdir -p $nc
secs="--section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats"
stalls="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
prof() {  # NAME KERNEL SET INDEX: line INDEX (not counting comments) of timing-set/SET.txt
  local name=$1 kern=$2 set=$3 idx=$4
  local line; line=$(grep -v '^#' $T/$set.txt | grep -v '^$' | sed -n ${idx}p)
  echo "$name|$line" >> $nc/index.txt
  # shellcheck disable=SC2046
  timeout 60 ncu --csv --page details --cache-control all --clock-control none $secs --metrics "$stalls" \
    -k $kern --launch-skip 0 --launch-count 1 \
    $W run $(echo "$line" | cut -d'|' -f2) --backend cuda --gpu-trace off > $nc/$name.csv 2> $nc/$name.err
  echo "rc=$?" >> $nc/$name.err
}
prof stencil7-b256 stencil7_smem set25 34
prof stencil7-b1024 stencil7_smem set25 36
cd $out && tar czf ncu34.tgz ncu34 && rm -rf ncu34
