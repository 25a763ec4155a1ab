#!/bin/bash
# Stop 35's first H100 call (portable build of this commit in .carry/; docs/validation/h100.md).
# 1. New compared-only microbenchmarks, twice each (tools/calibrate/suite_l1.cpp, mb_l1.kir): what
#    the L1 takes for a warp load over few lines (gather-l1-b5..b10: 32 distinct words of a 32- to
#    1,024-word table) or lines at a stride (stride-l1-s2..s33), and one warp's dependent loads of 32
#    words of a small table (chase-slots-*), beside gather-l1, chase-l1 and chase-lanes-l1. set28's
#    sbox from global memory (a 256-word table, 32 random words a load) ran 1.5-1.6x faster than
#    the model, which held the LSU a cycle for every 4 sectors a load touched.
# 2. Nsight Compute of sbox (global table, 8 rounds) and of set27's tiled matmul at TILE=8 and 16
#    (both scored before): memory tables (L1 wavefronts, sectors, hit rates), stall reasons.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
T=docs/validation/h100/timing-set
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
B=gather-l1,chase-l1,chase-lanes-l1
B=$B,gather-l1-b5,gather-l1-b6,gather-l1-b7,gather-l1-b8,gather-l1-b9,gather-l1-b10
B=$B,stride-l1-s2,stride-l1-s4,stride-l1-s8,stride-l1-s16,stride-l1-s32,stride-l1-s33
B=$B,chase-slots-256,chase-slots-1024,chase-slots-4096
for k in 1 2; do
  timeout 200 $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw35-$k.json --out $out/h100-35-$k.ini > $out/calibrate35-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate35-$k.txt
done
nc=$out/ncu35; mkdir -p $nc
secs="--section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section Occupancy"
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
prof sbox-g8 sbox_rounds set28 30
prof tile8 tiled_matmul set27 25
prof tile16 tiled_matmul set27 26
cd $out && tar czf ncu35.tgz ncu35 && rm -rf ncu35
