#!/bin/bash
# Stop 25's H100 call, from the repository root, with the portable build of this commit in .carry/
# (docs/validation/h100.md):
#   1. the fifth held-out set (timing-set/set25.txt, committed in 29b6924 before any of it ran on the
#      GPU), one `warpsim run --backend cuda` JSON each, packed unread into set25-out.tgz: the model
#      and preset it is scored with (sm.hoist_shared_loads, sm.fold_truncations) are committed
#      before that file is opened;
#   2. the kernels of tests/data/timing/stop25.kir (the hoisting and truncation tests' kernels) on the
#      GPU, 132 blocks of 128 threads, 64 and 256 trips: compared with the model only, fitted to nothing;
#   3. Nsight Compute's DRAM bytes for set22's stencil2d with 8x32 and 32x8 blocks (the model's
#      epochs let four SMs fetch a line their blocks share, each: 97.6 MB from DRAM modelled for the
#      8x32 grid with 64-cycle epochs, 75.1 MB with 16-cycle ones);
#   4. SASS: stop25.kir's kernels and every set25 kernel with each line's -D options.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
s=$out/set25-out; mkdir -p $s
i=0
grep -v '^#' docs/validation/h100/timing-set/set25.txt | grep -v '^$' | while IFS='|' read -r family args; do
  i=$((i + 1)); n=$(printf %02d $i)
  # shellcheck disable=SC2086
  timeout 120 $W run $args --backend cuda --format json --warps default > $s/$n.json 2> $s/$n.err
  echo "$n|$family|$args|rc=$?" >> $s/index.txt
done
date >> $out/device.txt
k=$out/stop25-kir; mkdir -p $k
for rounds in 64 256; do
  for kernel in shared_dot shared_dot_stored; do
    timeout 60 $W run tests/data/timing/stop25.kir --kernel $kernel --grid 132 --block 128 --arg rounds=$rounds \
      --buffer in=f32[128]:random --buffer out=f32[16896]:zeros --backend cuda --format json --warps 0 \
      > $k/$kernel-$rounds.json 2> $k/$kernel-$rounds.err
  done
  timeout 60 $W run tests/data/timing/stop25.kir --kernel truncate_sum --grid 132 --block 128 --arg rounds=$rounds \
    --buffer out=u32[16896]:zeros --backend cuda --format json --warps 0 > $k/truncate_sum-$rounds.json 2> $k/truncate_sum-$rounds.err
done
date >> $out/device.txt
nc=$out/ncu; mkdir -p $nc
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sector_hit_rate.pct
for b in 8,32 32,8; do
  g=$([ $b = 8,32 ] && echo 512,64 || echo 128,256)
  timeout 90 ncu --csv --cache-control all --clock-control none --metrics $m -k stencil2d --launch-skip 3 --launch-count 1 \
    $W run tests/data/cuda/heldout/stencil2d.cu --grid $g --block $b --arg width=4096 --arg height=2048 \
    --buffer in=f32[8388608]:random --buffer out=f32[8388608]:zeros --backend cuda --warps 0 > $nc/stencil2d-${b/,/x}.csv 2>&1
done
date >> $out/device.txt
q=$out/sass; mkdir -p $q
$W emit-cuda tests/data/timing/stop25.kir > /tmp/stop25.cu 2> $q/stop25.err &&
  nvcc -arch=sm_90 -cubin -o /tmp/stop25.cubin /tmp/stop25.cu >> $q/stop25.err 2>&1 &&
  cuobjdump -sass /tmp/stop25.cubin > $q/stop25.sass 2>&1
grep -v '^#' docs/validation/h100/timing-set/set25.txt | grep -v '^$' | cut -d'|' -f2 | while read -r f rest; do
  defs=$(echo "$rest" | grep -o -- '--nvcc-opt [^ ]*' | sed 's/--nvcc-opt //' | tr '\n' ' ')
  b=$(basename $f .cu)$(echo " $defs" | sed 's/ -D/-/g; s/=//g; s/ //g')
  [ -e $q/$b.sass ] && continue
  # shellcheck disable=SC2086
  nvcc -arch=sm_90 -cubin $defs -o /tmp/$b.cubin $f > $q/$b.err 2>&1 && cuobjdump -sass /tmp/$b.cubin > $q/$b.sass 2>&1
done
date >> $out/device.txt
cd $out && tar czf set25-out.tgz set25-out && rm -rf set25-out && tar czf sass.tgz sass && rm -rf sass && tar czf ncu.tgz ncu && rm -rf ncu
