#!/bin/bash
# Stop 28's second H100 call, from the repository root with the portable build of this commit in
# .carry/ (docs/validation/h100.md). The CUDA emitter now writes an IR vector access (ld/st .v2/.v4)
# as one access of CUDA's vector type (float4, uint2, ...) instead of element by element through a
# scalar pointer (cuda/emitter.cpp): NVRTC cannot prove a generic pointer's alignment, so the old
# form ran as scalar loads (set28's batch_mm4: 32 LD.E where a user's float4 code runs LDG.E.128;
# batch28.sh's SASS). The 24 runs of the eight sets whose emitted code changed (every other run's is
# byte-identical) are measured again here:
#   1. each with --gpu-trace off (the kernel time and the compile's registers), JSON into remeasure/;
#   2. calibrate --benches launch, four times;
#   3. SASS of the 14 changed kernels' new cubins (NVRTC, made before the call as timing-set/cubins.sh
#      does), to see the vector accesses.
# The list (set file, line number among its runs) is the output of comparing `warpsim emit-cuda` of
# every run's kernel at 8beded1 and at this commit.
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
set22.txt 24
set22.txt 31
set22.txt 32
set23.txt 17
set23.txt 18
set23.txt 19
set23.txt 30
set23.txt 33
set23.txt 34
set24.txt 37
set24.txt 38
set24.txt 39
set25.txt 14
set25.txt 15
set25.txt 16
set25.txt 26
set25.txt 27
set25.txt 28
set28.txt 8
set28.txt 9
set28.txt 10
set28.txt 11
set28.txt 34
set28.txt 35
LIST
date >> $out/device.txt
for i in 1 2 3 4; do
  timeout 60 $W calibrate --backend cuda --threads 16 --gpu-name h100 --benches launch \
    --save $out/raw28b-$i.json --out $out/h100-28b-$i.ini > $out/calibrate28b-$i.txt 2>&1
  echo "calibrate rc=$?" >> $out/calibrate28b-$i.txt
done
date >> $out/device.txt
q=$out/sass; mkdir -p $q
for c in .carry/cubins28b/*.cubin; do
  cuobjdump -sass $c > $q/$(basename $c .cubin).sass 2>&1
done
cd $out && tar czf remeasure.tgz remeasure && rm -rf remeasure && tar czf sass.tgz sass && rm -rf sass &&
  tar czf raw28b.tgz raw28b-*.json h100-28b-*.ini calibrate28b-*.txt && rm -f raw28b-*.json h100-28b-*.ini calibrate28b-*.txt
