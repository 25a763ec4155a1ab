#!/bin/bash
# Stop 30's second H100 call, from the repository root with the portable build of this commit in
# .carry/ (docs/validation/h100.md): the warp instructions the GPU issues (Nsight Compute,
# smsp__inst_issued.sum) for every run of the nine held-out sets whose kernel has an IEEE division,
# reciprocal or square root (h100/stop30/slowpath-runs.txt), to set against the issue slots the
# model gives them (sm.slow_path_slots); and the SASS of the fdiv and sfu microbenchmarks
# (NVRTC's cubins of `warpsim emit-cuda kernels/microbench/mb_chain_{fdiv,sfu}.kir`, in
# .carry/cubins30b). ncu skips the three warm-ups and profiles the first timed launch.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
s=$out/sass30b; mkdir -p $s
for c in $C/cubins30b/*.cubin; do cuobjdump -sass "$c" > "$s/$(basename "$c" .cubin).sass" 2>&1; done
n=$out/ncu30b; mkdir -p $n
m=gpu__time_duration.sum,smsp__inst_issued.sum,smsp__inst_executed.sum,sm__cycles_active.avg
grep -v '^#' docs/validation/h100/stop30/slowpath-runs.txt | while IFS='|' read -r name kernel args; do
  # shellcheck disable=SC2086
  timeout 60 ncu --csv --cache-control all --clock-control none --metrics $m --launch-skip 3 --launch-count 1 \
    $W run $args --backend cuda --gpu-trace off > $n/$name.csv 2>&1 < /dev/null
done
cd $out && tar czf ncu30b.tgz ncu30b sass30b && rm -rf ncu30b sass30b
