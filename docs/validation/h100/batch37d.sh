#!/bin/bash
# Stop 37's fourth device call (portable build of this commit in .carry/). Until this commit the
# cuda backend timed the CUDA warpsim emits from the IR even for a .cu or .ptx kernel, not the
# kernel as its author builds it (batch37c.sh's SASS: conv1d's emitted loop has about 14
# instructions a tap, its source's about 8). Now it times the kernel's own PTX (--gpu-build source)
# unless told --gpu-build emitted. This call times set29's runs and batch37.sh's fifteen both ways,
# one after the other per run (kernel_ms: median of 10 after 3 warm-ups, each behind an L2 flush),
# to measure how far the held-out sets' figures (all measured with the emitted build) are from the
# kernels' own builds. An H200 (the H100's GH100 SM, other memory): the two builds are compared
# with each other, not with the H100's figures.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
r=$out/builds37; mkdir -p $r
i=0
{ grep '^prof ' docs/validation/h100/batch37.sh | sed 's/^prof [^ ]* [^ ]* //; s#\$D#tests/data/cuda#' | sed 's/^/ncu15|/'
  grep -v '^#' docs/validation/h100/timing-set/set29.txt | grep -v '^$'; } | while IFS='|' read -r family args; do
  [ $SECONDS -gt 530 ] && { echo "stopped at $i for time" >> $out/device.txt; break; }
  i=$((i + 1)); n=$(printf %03d $i)
  for b in source emitted; do
    # shellcheck disable=SC2086
    timeout 60 $W run $args --backend cuda --gpu-trace off --gpu-build $b --format json > $r/$n-$b.json 2> $r/$n-$b.err
    echo "$n|$b|$family|$args|rc=$?" >> $r/index.txt
  done
done
date >> $out/device.txt
cd $out && tar czf builds37.tgz builds37 && rm -rf builds37
