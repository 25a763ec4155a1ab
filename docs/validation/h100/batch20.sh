#!/bin/bash
# Stop 20 on the H100, one device call from the repository root, with the portable build of this
# stop (cmake -DWARPSIM_PORTABLE=ON, docs/validation/h100.md) and libfmt/libspdlog in .carry/:
#   1. calibrate: the microbenchmark suite (dispatch-64/-1024 new), every timed launch queued behind
#      the L2 flush (cuda/gpu.cpp); raw figures, the fitted preset, measured against predicted;
#   2. the held-out validation set (timing-set/set.txt), one `warpsim run --backend cuda` JSON each,
#      measured the same way (parameters are fitted from step 1 only, afterwards, on the dev machine);
#   3. Nsight Compute on six of them (its own cache flush, gpu__time_duration and SM cycles), as a
#      check of the backend's timing method;
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
mkdir -p build/tools && ln -sf $W build/tools/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
timeout 300 $W calibrate --backend cuda --threads 8 --out $out/h100.ini --save $out/raw.json > $out/calibrate.txt 2>&1
echo "calibrate rc=$?" >> $out/calibrate.txt
date >> $out/device.txt
mkdir -p set-out
i=0
grep -v '^#' docs/validation/h100/timing-set/set.txt | while IFS='|' read -r family args; do
  i=$((i + 1)); n=$(printf %02d $i)
  # shellcheck disable=SC2086
  timeout 120 $W run $args --backend cuda --format json --warps default > set-out/$n.json 2> set-out/$n.err
  echo "$n|$family|$args|rc=$?" >> set-out/index.txt
done
date >> $out/device.txt
mkdir -p ncu
m=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second
while IFS='|' read -r kernel args; do
  # shellcheck disable=SC2086
  timeout 120 ncu --csv --cache-control all --clock-control none --metrics $m -k $kernel --launch-skip 3 \
    --launch-count 5 $W run $args --backend cuda --warps default > ncu/$kernel.csv 2>&1
done <<'LIST'
empty|tests/data/timing/empty.kir --grid 1 --block 32 --buffer out=u32[1]:zeros
vecadd|vecadd --set n=4194304 --set block=256
reduce_fig5_15|reduce-fig5-15 --set n=16777216 --set block=512
gray|gray --set width=1920 --set height=1080
bank_conflicts|bank-conflicts --set stride=32 --set rounds=1024 --set blocks=264
matmul_tiled|matmul-tiled --set rows=256 --set inner=256 --set cols=256
reduce_coarsened|reduce-coarsened --set n=4194304 --set coarse=4
LIST
date >> $out/device.txt
tar czf $out/set-out.tgz set-out ncu
