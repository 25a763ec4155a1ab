#!/bin/bash
# Stop 27's second H100 call, from the repository root with the portable build of this commit in
# .carry/ (docs/validation/h100.md). The CUDA emitter now forms a shared or local pointer as
# smem + base + offset instead of smem + (u32)(base + offset) (cuda/emitter.cpp): NVRTC, whose
# shared pointers are 64-bit, could not fold the zero-extended u32 sum into the access and kept one
# 64-bit pointer per offset live across the loop (batch27a.sh's Nsight Compute: set25's matmul_rect
# ran with 93 and 168 registers a thread, 2 and 1 blocks an SM). The 44 runs of the six scored sets
# whose emitted code changed (every other run's is byte-identical) are measured again here:
#   1. each with --gpu-trace off (the kernel time and the compile's registers), JSON into remeasure/;
#   2. calibrate: the launch overhead four times, and stream-conflict-dram (mb_memory.kir's
#      stream_conflict4, whose emitted code changed too) twice.
# The list (set file, line number among its runs) is the output of comparing `warpsim emit-cuda` of
# every run's kernel at 915c9b7 and at this commit.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
T=docs/validation/h100/timing-set
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
r=$out/remeasure; mkdir -p $r
while read -r set idx; do
  line=$(grep -v '^#' $T/$set | grep -v '^$' | sed -n ${idx}p)
  family=${line%%|*}; args=${line#*|}
  n=${set%.txt}-$(printf %02d $idx)
  # shellcheck disable=SC2086
  timeout 120 $W run $args --backend cuda --format json --gpu-trace off > $r/$n.json 2> $r/$n.err
  echo "$n|$family|$args|rc=$?" >> $r/index.txt
done <<'LIST'
set.txt 52
set22.txt 31
set22.txt 32
set22.txt 33
set22.txt 34
set23.txt 2
set23.txt 3
set23.txt 17
set23.txt 18
set23.txt 19
set24.txt 2
set24.txt 3
set24.txt 4
set24.txt 5
set24.txt 6
set25.txt 1
set25.txt 2
set25.txt 3
set25.txt 4
set25.txt 5
set25.txt 6
set25.txt 7
set25.txt 8
set25.txt 9
set25.txt 32
set25.txt 33
set25.txt 34
set25.txt 35
set25.txt 36
set25.txt 37
set25.txt 38
set25.txt 39
set25.txt 40
set25.txt 41
set25.txt 42
set26.txt 9
set26.txt 10
set26.txt 11
set26.txt 12
set26.txt 13
set26.txt 14
set26.txt 15
set26.txt 38
set26.txt 39
LIST
date >> $out/device.txt
for i in 1 2; do
  timeout 120 $W calibrate --backend cuda --threads 16 --gpu-name h100 --benches launch,stream-conflict-dram \
    --save $out/raw27b-$i.json --out $out/h100-27b-$i.ini > $out/calibrate27b-$i.txt 2>&1
  echo "calibrate rc=$?" >> $out/calibrate27b-$i.txt
done
for i in 3 4; do
  timeout 60 $W calibrate --backend cuda --threads 16 --gpu-name h100 --benches launch \
    --save $out/raw27b-$i.json --out $out/h100-27b-$i.ini > $out/calibrate27b-$i.txt 2>&1
  echo "calibrate rc=$?" >> $out/calibrate27b-$i.txt
done
date >> $out/device.txt
cd $out && tar czf remeasure.tgz remeasure && rm -rf remeasure && tar czf raw27b.tgz raw27b-*.json h100-27b-*.ini calibrate27b-*.txt &&
  rm -f raw27b-*.json h100-27b-*.ini calibrate27b-*.txt
