#!/bin/bash
# Stop 34's second H100 call: inside a block of batch34.sh's lifetime-* (1,024-thread blocks lived
# 250-370 cycles longer than the model's, with or without a barrier; empty ones 35-90 longer).
# block-start-* / block-life-* (each warp's %clock64 at its start and after the barrier),
# dispatch-sreg-* (empty blocks that read the special registers), beside lifetime-l2-bar-b1024 and
# dispatch-bar-1024; twice each. The SASS of block_clock and load_bar (emit-cuda, nvcc -O3).
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
B=dispatch-bar-1024,dispatch-sreg-256,dispatch-sreg-1024,lifetime-l2-bar-b1024
B=$B,block-start-l2-b256,block-start-l2-b1024,block-life-l2-b256,block-life-l2-b1024
B=$B,block-start-dram-b1024,block-life-dram-b1024,block-life-dram-b256,block-start-first-b1024,block-life-first-b1024
for k in 1 2; do
  timeout 200 $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw34b-$k.json --out $out/h100-34b-$k.ini > $out/calibrate34b-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate34b-$k.txt
done
s=$out/sass34b; mkdir -p $s
$W emit-cuda kernels/microbench/mb_sync.kir > $s/mb_sync.cu 2> $s/err.txt
nvcc -cubin -arch=sm_90 -O3 -o $s/mb_sync.cubin $s/mb_sync.cu >> $s/err.txt 2>&1
cuobjdump -sass -fun block_clock $s/mb_sync.cubin > $s/block_clock.sass 2>&1
cuobjdump -sass -fun load_bar $s/mb_sync.cubin > $s/load_bar.sass 2>&1
cuobjdump -sass -fun sreg_exit $s/mb_sync.cubin > $s/sreg_exit.sass 2>&1
rm -f $s/mb_sync.cubin $s/mb_sync.cu
cd $out && tar czf sass34b.tgz sass34b && rm -rf sass34b
