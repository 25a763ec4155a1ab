#!/bin/bash
# Stop 37's fifth device call (portable build of e86a494 in .carry/): batch37d.sh's comparison of
# the two builds a GPU can time (--gpu-build source: the kernel's own PTX; emitted: the CUDA warpsim
# writes from the IR, which timed every held-out set) for the runs of h100/stop37/failruns.txt, the
# families the model fails, to tell which failures the emitted build made. Stops starting new runs
# after 540 s; FIRST (default 1) is the first run to time, for a second call.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
first=${1:-1}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
r=$out/builds37e; mkdir -p $r
i=0
grep -v '^#' docs/validation/h100/stop37/failruns.txt | while IFS='|' read -r family args; do
  i=$((i + 1))
  [ $i -lt $first ] && continue
  [ $SECONDS -gt 540 ] && { echo "stopped before run $i for time" >> $out/device.txt; break; }
  n=$(printf %03d $i)
  for b in source emitted; do
    # shellcheck disable=SC2086
    timeout 60 $W run $args --backend cuda --gpu-trace off --gpu-build $b --format json > $r/$n-$b.json 2> $r/$n-$b.err
    echo "$n|$b|$family|$args|rc=$?" >> $r/index.txt
  done
done
date >> $out/device.txt
cd $out && tar czf builds37e-$first.tgz builds37e && rm -rf builds37e
