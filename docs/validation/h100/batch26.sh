#!/bin/bash
# Stop 26's H100 call, from the repository root with the portable build of this commit in .carry/
# (docs/validation/h100.md):
#   1. the sixth held-out set (timing-set/set26.txt, committed in 138d004 before any of it ran on the
#      GPU), one `warpsim run --backend cuda` JSON each, packed unread into set26-out.tgz; a run whose
#      warp trace does not fit runs again with --gpu-trace off (the kernel time only). The model it is
#      scored with (sim.merge_epoch_misses) is committed before that file is opened;
#   2. set25's heat-steps with 16 steps, which stop 25's call could not run (its trace would have
#      needed 1.1 GB), with --gpu-trace off;
#   3. calibrate, twice: the launch overhead (subtracted from every set26 run) and three new
#      microbenchmarks compared only (atom-hot-u64; lat-/tput-int64sx, full-width 64-bit shifts and
#      xors), with atom-hot-u32, lat-int64 and tput-int64 beside them; then launch alone twice more;
#   4. SASS: every set26 kernel with each line's -D options, and the new microbenchmarks.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
s=$out/set26-out; mkdir -p $s
i=0
grep -v '^#' docs/validation/h100/timing-set/set26.txt | grep -v '^$' | while IFS='|' read -r family args; do
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
x=$out/set25x; mkdir -p $x
grep -v '^#' docs/validation/h100/timing-set/set25.txt | grep -v '^$' | sed -n 39p | while IFS='|' read -r family args; do
  # shellcheck disable=SC2086
  timeout 120 $W run $args --backend cuda --format json --gpu-trace off > $x/39.json 2> $x/39.err
  echo "39|$family|$args|rc=$?" >> $x/index.txt
done
date >> $out/device.txt
for i in 1 2; do
  timeout 240 $W calibrate --backend cuda --threads 16 --gpu-name h100 \
    --benches launch,atom-hot-u64,atom-hot-u32,lat-int64sx,tput-int64sx,lat-int64,tput-int64 \
    --save $out/raw26-$i.json --out $out/h100-26-$i.ini > $out/calibrate26-$i.txt 2>&1
  echo "calibrate rc=$?" >> $out/calibrate26-$i.txt
done
for i in 3 4; do
  timeout 60 $W calibrate --backend cuda --threads 16 --gpu-name h100 --benches launch \
    --save $out/raw26-$i.json --out $out/h100-26-$i.ini > $out/calibrate26-$i.txt 2>&1
  echo "calibrate rc=$?" >> $out/calibrate26-$i.txt
done
date >> $out/device.txt
q=$out/sass; mkdir -p $q
for k in mb_chain_int64sx mb_sync; do
  $W emit-cuda kernels/microbench/$k.kir > /tmp/$k.cu 2> $q/$k.err &&
    nvcc -arch=sm_90 -cubin -o /tmp/$k.cubin /tmp/$k.cu >> $q/$k.err 2>&1 &&
    cuobjdump -sass /tmp/$k.cubin > $q/$k.sass 2>&1
done
grep -v '^#' docs/validation/h100/timing-set/set26.txt | grep -v '^$' | cut -d'|' -f2 | while read -r f rest; do
  defs=$(echo "$rest" | grep -o -- '--nvcc-opt [^ ]*' | sed 's/--nvcc-opt //' | tr '\n' ' ')
  b=$(basename $f .cu)$(echo " $defs" | sed 's/ -D/-/g; s/=//g; s/ //g')
  [ -e $q/$b.sass ] && continue
  # shellcheck disable=SC2086
  nvcc -arch=sm_90 -cubin $defs -o /tmp/$b.cubin $f > $q/$b.err 2>&1 && cuobjdump -sass /tmp/$b.cubin > $q/$b.sass 2>&1
done
date >> $out/device.txt
cd $out && tar czf set26-out.tgz set26-out && rm -rf set26-out && tar czf set25x.tgz set25x && rm -rf set25x &&
  tar czf sass.tgz sass && rm -rf sass && tar czf raw26.tgz raw26-*.json h100-26-*.ini calibrate26-*.txt &&
  rm -f raw26-*.json h100-26-*.ini calibrate26-*.txt
