#!/bin/bash
# Stop 27's third H100 call, from the repository root with the portable build of this commit in
# .carry/ (docs/validation/h100.md):
#   1. the seventh held-out set (timing-set/set27.txt, committed before any of it ran on the GPU),
#      one `warpsim run --backend cuda` JSON each, packed unread into set27-out.tgz; a run whose
#      warp trace does not fit runs again with --gpu-trace off (the kernel time only). The model it
#      is scored with is committed before that file is opened;
#   2. calibrate --benches launch, four times: the launch overhead subtracted from every set27 run;
#   3. SASS of every set27 kernel as the GPU ran it (NVRTC's cubins of the emitted CUDA, made
#      before the call by timing-set/cubins.sh), for the misses.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
s=$out/set27-out; mkdir -p $s
i=0
grep -v '^#' docs/validation/h100/timing-set/set27.txt | grep -v '^$' | while IFS='|' read -r family args; do
  i=$((i + 1)); n=$(printf %02d $i)
  # shellcheck disable=SC2086
  timeout 120 $W run $args --backend cuda --format json --warps default > $s/$n.json 2> $s/$n.err
  rc=$?
  if [ $rc != 0 ]; then
    # shellcheck disable=SC2086
    timeout 120 $W run $args --backend cuda --format json --gpu-trace off > $s/$n.json 2>> $s/$n.err
    rc=$?
    echo "traced run failed; ran again with --gpu-trace off: rc=$rc" >> $s/$n.err
  fi
  echo "$n|$family|$args|rc=$rc" >> $s/index.txt
done
date >> $out/device.txt
for i in 1 2 3 4; do
  timeout 60 $W calibrate --backend cuda --threads 16 --gpu-name h100 --benches launch \
    --save $out/raw27c-$i.json --out $out/h100-27c-$i.ini > $out/calibrate27c-$i.txt 2>&1
  echo "calibrate rc=$?" >> $out/calibrate27c-$i.txt
done
date >> $out/device.txt
q=$out/sass; mkdir -p $q
# The cubins are NVRTC's compile of each line's emitted CUDA with warpsim's options, made before the
# call (docs/validation/h100/timing-set/cubins.sh): what the timed launches ran. cuobjdump is here.
for c in .carry/cubins27/*.cubin; do
  cuobjdump -sass $c > $q/$(basename $c .cubin).sass 2>&1
done
date >> $out/device.txt
cd $out && tar czf set27-out.tgz set27-out && rm -rf set27-out && tar czf sass.tgz sass && rm -rf sass &&
  tar czf raw27c.tgz raw27c-*.json h100-27c-*.ini calibrate27c-*.txt && rm -f raw27c-*.json h100-27c-*.ini calibrate27c-*.txt
