#!/bin/bash
# Stop 30's H100 call, from the repository root with the portable build of this commit in .carry/
# (docs/validation/h100.md) and NVRTC's cubins of the kernels below in .carry/cubins30 (made by
# `bash docs/validation/h100/timing-set/cubins.sh build/tools/warpsim NVC .carry/cubins30 LIST`, LIST
# being these 19 lines of set29.txt). Nsight Compute's memory, stall and occupancy figures, and the
# SASS, of set29's worst misses (docs/validation/timing.md, stop 29): merge-path, thomas, pcr,
# bigint-mul, particle-bin and tanimoto, every run of each family. None of these runs is new: set29
# was scored blind at stop 29. Each run is `warpsim run ... --backend cuda --gpu-trace off` (three
# warm-ups, then repeats): ncu skips the warm-ups and profiles the first timed launch, every counter
# pass from one cache state (--cache-control all), at the GPU's own clocks (--clock-control none).
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
T=docs/validation/h100/timing-set
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
s=$out/sass30; mkdir -p $s
for c in $C/cubins30/*.cubin; do cuobjdump -sass "$c" > "$s/$(basename "$c" .cubin).sass" 2>&1; done
nc=$out/ncu30; mkdir -p $nc
secs="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section InstructionStats"
# INDEX: the line's number among set29.txt's run lines
for idx in 1 2 3 4 5 6 7 8 9 10 23 24 25 33 34 35 36 37 38; do
  line=$(grep -v '^#' $T/set29.txt | grep -v '^$' | sed -n ${idx}p)
  name=$(echo "$line" | cut -d'|' -f1)-$idx
  args=$(echo "$line" | cut -d'|' -f2)
  echo "$name|set29.txt|$idx|$args" >> $nc/index.txt
  # shellcheck disable=SC2086
  timeout 100 ncu --csv --page details --cache-control all --clock-control none $secs --launch-skip 3 --launch-count 1 \
    $W run $args --backend cuda --gpu-trace off > $nc/$name.csv 2> $nc/$name.err
  echo "rc=$?" >> $nc/$name.err
done
cd $out && tar czf ncu30.tgz ncu30 sass30 device.txt && rm -rf ncu30 sass30
