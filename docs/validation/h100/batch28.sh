#!/bin/bash
# Stop 28's H100 call, from the repository root with the portable build of this commit in
# .carry/ (docs/validation/h100.md):
#   1. the eighth held-out set (timing-set/set28.txt, committed before any of it ran on the GPU),
#      one `warpsim run --backend cuda` JSON each, packed unread into set28-out.tgz; a run whose
#      warp trace does not fit runs again with --gpu-trace off (the kernel time only). The model it
#      is scored with is committed before that file is opened;
#   2. calibrate --benches launch, four times: the launch overhead subtracted from every set28 run;
#   3. SASS of every set28 kernel as the GPU ran it (NVRTC's cubins of the emitted CUDA, made
#      before the call by timing-set/cubins.sh WARPSIM NVC .carry/cubins28 set28.txt), for the misses;
#      and of every kernel of set22-set26 as the emitter makes it now (cubins.sh ... .carry/cubins2N
#      set2N.txt), to check sm.vector_shared_loads's groups against the GPU's LDS.64/LDS.128.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
s=$out/set28-out; mkdir -p $s
i=0
grep -v '^#' docs/validation/h100/timing-set/set28.txt | grep -v '^$' | while IFS='|' read -r family args; do
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
    --save $out/raw28-$i.json --out $out/h100-28-$i.ini > $out/calibrate28-$i.txt 2>&1
  echo "calibrate rc=$?" >> $out/calibrate28-$i.txt
done
date >> $out/device.txt
q=$out/sass; mkdir -p $q
# The cubins are NVRTC's compile of each line's emitted CUDA with warpsim's options, made before the
# call (docs/validation/h100/timing-set/cubins.sh WARPSIM NVC .carry/cubins28 set28.txt): what the timed launches ran. cuobjdump is here.
for d in .carry/cubins2[2-8]; do
  mkdir -p $q/$(basename $d)
  for c in $d/*.cubin; do
    cuobjdump -sass $c > $q/$(basename $d)/$(basename $c .cubin).sass 2>&1
  done
done
date >> $out/device.txt
cd $out && tar czf set28-out.tgz set28-out && rm -rf set28-out && tar czf sass.tgz sass && rm -rf sass &&
  tar czf raw28.tgz raw28-*.json h100-28-*.ini calibrate28-*.txt && rm -f raw28-*.json h100-28-*.ini calibrate28-*.txt
