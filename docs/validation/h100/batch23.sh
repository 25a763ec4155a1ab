#!/bin/bash
# Stop 23's H100 call, from the repository root, with the portable build of this commit in .carry/
# (docs/validation/h100.md):
#   (in this order: 2, 3, 1, so the calibration's fit, the longest step, comes last)
#   1. `warpsim calibrate --backend cuda` on the whole suite (the new fp64 chains and random
#      gathers and loop bookkeeping included), end to end: raw figures (raw23.json), the preset fitted on the GPU
#      machine (h100-23.ini) and measured against predicted (calibrate23.txt);
#   2. the third held-out set (timing-set/set23.txt, written before any of it ran on the GPU), one
#      `warpsim run --backend cuda` JSON each, packed unread into set23-out.tgz: the preset it is
#      scored with is fitted and committed before that file is opened;
#   3. SASS: the new microbenchmarks and every set23 kernel.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
s=$out/set23-out; mkdir -p $s
i=0
grep -v '^#' docs/validation/h100/timing-set/set23.txt | grep -v '^$' | while IFS='|' read -r family args; do
  i=$((i + 1)); n=$(printf %02d $i)
  # shellcheck disable=SC2086
  timeout 120 $W run $args --backend cuda --format json --warps default > $s/$n.json 2> $s/$n.err
  echo "$n|$family|$args|rc=$?" >> $s/index.txt
done
date >> $out/device.txt
q=$out/sass; mkdir -p $q
for k in mb_memory mb_sync mb_chain_fp64; do
  $W emit-cuda kernels/microbench/$k.kir > /tmp/$k.cu 2> $q/$k.err &&
    nvcc -arch=sm_90 -cubin -o /tmp/$k.cubin /tmp/$k.cu >> $q/$k.err 2>&1
done
cuobjdump -sass -fun gather_hash4 /tmp/mb_memory.cubin > $q/gather_hash4.sass 2>&1
cuobjdump -sass /tmp/mb_chain_fp64.cubin > $q/mb_chain_fp64.sass 2>&1
for f in loop_fma_imm loop_fma_reg; do cuobjdump -sass -fun $f /tmp/mb_sync.cubin > $q/$f.sass 2>&1; done
for f in tests/data/cuda/heldout23/*.cu; do
  b=$(basename $f .cu)
  nvcc -arch=sm_90 -cubin -o /tmp/$b.cubin $f > $q/$b.err 2>&1 && cuobjdump -sass /tmp/$b.cubin > $q/$b.sass 2>&1
done
date >> $out/device.txt
timeout 380 $W calibrate --backend cuda --threads 16 --gpu-name h100 \
  --save $out/raw23.json --out $out/h100-23.ini > $out/calibrate23.txt 2>&1
echo "calibrate rc=$?" >> $out/calibrate23.txt
date >> $out/device.txt
cd $out && tar czf set23-out.tgz set23-out && rm -rf set23-out && tar czf sass.tgz sass && rm -rf sass
