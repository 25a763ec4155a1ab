#!/bin/bash
# Stop 34's third H100 call. batch34b.sh found empty 1,024-thread blocks that read %tid.x and
# %ctaid.x and compare a parameter (dispatch-sreg-1024: 2.65 cycles a block, chip-wide) far slower
# than ones that only pass a barrier (dispatch-bar-1024: 1.57); and its block-life-* had lost their
# load to ptxas (a store of the loaded word back to its own address). Here: each read alone
# (dispatch-tid/-ctaid/-param-1024), block_clock with its load kept (a store to another buffer),
# twice each; the SASS of the new kernels.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
B=dispatch-bar-1024,dispatch-sreg-1024,dispatch-tid-1024,dispatch-ctaid-1024,dispatch-param-1024
B=$B,block-start-l2-b1024,block-life-l2-b256,block-life-l2-b1024,block-life-dram-b256,block-life-dram-b1024,block-life-first-b1024
for k in 1 2; do
  timeout 200 $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw34c-$k.json --out $out/h100-34c-$k.ini > $out/calibrate34c-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate34c-$k.txt
done
s=$out/sass34c; mkdir -p $s
$W emit-cuda kernels/microbench/mb_sync.kir > $s/mb_sync.cu 2> $s/err.txt
nvcc -cubin -arch=sm_90 -O3 -o $s/mb_sync.cubin $s/mb_sync.cu >> $s/err.txt 2>&1
for f in block_clock bar_exit tid_exit ctaid_exit param_exit; do cuobjdump -sass -fun $f $s/mb_sync.cubin > $s/$f.sass 2>&1; done
rm -f $s/mb_sync.cubin $s/mb_sync.cu
cd $out && tar czf sass34c.tgz sass34c && rm -rf sass34c
