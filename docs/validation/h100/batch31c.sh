#!/bin/bash
# Stop 31's third H100 call (portable build of this commit in .carry/):
# 1. chase-lanes-l1 and chase-lanes-l1-w4, new: 32 (128) lanes each chasing its own stretch of one
#    random chain over 64 KiB, so each dependent warp load gathers 32 lines that hit L1 (set29's
#    thomas over contiguous systems, -44%), beside chase-l1 (one line) and chase-lanes-w1 (DRAM);
#    twice.
# 2. Nsight Compute of reduce-last-block at 2^22 itself (batch31.sh's profile caught the L2 flush
#    kernel before it: -k now), with every stall reason per issued instruction.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
for k in 1 2; do
  $W calibrate --backend cuda --gpu-name h100 --benches chase-l1,chase-lanes-l1,chase-lanes-l1-w4,chase-lanes-w1 \
    --passes 1 --save $out/raw31c-$k.json --out $out/h100-31c-$k.ini > $out/calibrate31c-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate31c-$k.txt
done
nc=$out/ncu31c; mkdir -p $nc
secs="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section MemoryWorkloadAnalysis --section InstructionStats"
stalls="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
for n in 4194304 65536; do
  timeout 60 ncu --csv --page details --cache-control all --clock-control none $secs --metrics "$stalls" \
    -k reduce_last_block --launch-skip 0 --launch-count 1 \
    $W run reduce-last-block --set n=$n --backend cuda --gpu-trace off > $nc/last-block-$n.csv 2> $nc/last-block-$n.err
  echo "rc=$?" >> $nc/last-block-$n.err
done
timeout 60 ncu --csv --page details --cache-control all --clock-control none $secs --metrics "$stalls" \
  -k reduce_fig5_15 --launch-skip 0 --launch-count 1 \
  $W run reduce-full --set n=4194304 --backend cuda --gpu-trace off > $nc/full-4194304.csv 2> $nc/full-4194304.err
echo "rc=$?" >> $nc/full-4194304.err
cd $out && tar czf ncu31c.tgz ncu31c && rm -rf ncu31c
