#!/bin/bash
# Stop 33's third H100 call (the model of this commit in .carry/: no batching across a barrier, the
# folded L1 index, the shares' bursts scaled by the chip's spare bandwidth).
# 1. New microbenchmarks, twice: DRAM read and written together (bw-copy, bw-add, bw-copy-once),
#    with bw-dram-mlp4, bw-store-256m and dram-loaded-w2/w64 beside them; the SASS of batch33's
#    barrier_stream.cu, which did not come back last call.
# 2. The nine held-out sets replayed through the simulator on the machine's cores (reports33b.tgz).
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
r=$out/reports33b; mkdir -p $r
for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
         h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
  $W timing-report tests/data/timing/$f.json --threads 1 --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
done
B=bw-copy,bw-add,bw-copy-once,bw-dram-mlp4,bw-store-256m,dram-loaded-w2,dram-loaded-w64,chase-dram
for k in 1 2; do
  $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw33b-$k.json --out $out/h100-33b-$k.ini > $out/calibrate33b-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate33b-$k.txt
done
s=$out/sass33; mkdir -p $s
nvcc -cubin -arch=sm_90 -O3 -o $s/barrier_stream.cubin docs/validation/h100/stop33/barrier_stream.cu > $s/err.txt 2>&1
cuobjdump -sass $s/barrier_stream.cubin > $s/barrier_stream.sass 2>&1; rm -f $s/barrier_stream.cubin
wait
cd $out && tar czf reports33b.tgz reports33b sass33 && rm -rf reports33b sass33
