#!/bin/bash
# Stop 22's first H100 call, from the repository root, the portable build of 2415e97 in .carry/
# (docs/validation/h100.md):
#   1. calibrate, compared only: the new microbenchmarks (skip-shared-32, chase-merge-w16/-sm132)
#      beside the ones they lean on, and `launch` (the empty kernel, subtracted from every run);
#   2. the second held-out set (timing-set/set22.txt), one `warpsim run --backend cuda` JSON each,
#      after the presets it is scored with were frozen (6330b94 and 34f1be4);
#   3. SASS: ptxas's code for the tree step and the new microbenchmarks, and for each set22 kernel.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
timeout 200 $W calibrate --backend cuda --threads 8 \
  --benches launch,skip-shared-32,skip-body-32,tree-step-16,bar-16,chase-merge-w16,chase-merge-sm132,chase-dram,chase-l2,chase-l1 \
  --save $out/raw22.json --out $out/h100-22.ini > $out/calibrate22.txt 2>&1
echo "calibrate rc=$?" >> $out/calibrate22.txt
date >> $out/device.txt
s=$out/set22-out; mkdir -p $s
i=0
grep -v '^#' docs/validation/h100/timing-set/set22.txt | while IFS='|' read -r family args; do
  i=$((i + 1)); n=$(printf %02d $i)
  # shellcheck disable=SC2086
  timeout 120 $W run $args --backend cuda --format json --warps default > $s/$n.json 2> $s/$n.err
  echo "$n|$family|$args|rc=$?" >> $s/index.txt
done
date >> $out/device.txt
q=$out/sass; mkdir -p $q
for k in mb_sync mb_memory; do
  $W emit-cuda kernels/microbench/$k.kir > /tmp/$k.cu 2> $q/$k.err &&
    nvcc -arch=sm_90 -cubin -o /tmp/$k.cubin /tmp/$k.cu >> $q/$k.err 2>&1
done
for f in tree_step skip_shared; do cuobjdump -sass -fun $f /tmp/mb_sync.cubin > $q/$f.sass 2>&1; done
cuobjdump -sass -fun chase_together /tmp/mb_memory.cubin > $q/chase_together.sass 2>&1
for f in tests/data/cuda/heldout/*.cu tests/data/cuda/{saxpy,vecadd4,spmv_csr,bitonic_step,local_sort,scan_brent_kung,warp_sum,bfs_frontier}.cu; do
  b=$(basename $f .cu)
  nvcc -arch=sm_90 -cubin --fmad=false -o /tmp/$b.cubin $f > $q/$b.err 2>&1 && cuobjdump -sass /tmp/$b.cubin > $q/$b.sass 2>&1
done
date >> $out/device.txt
cd $out && tar czf set22-out.tgz set22-out && rm -rf set22-out && tar czf sass.tgz sass && rm -rf sass
