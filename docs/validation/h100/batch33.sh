#!/bin/bash
# Stop 33's first H100 call (portable build of this commit in .carry/; docs/validation/h100.md).
# New microbenchmarks, twice:
# - barrier-dram-*: loads of new lines from DRAM across a block barrier, one block an SM of 1/8/32
#   warps and full SMs in blocks of 64/256/1,024 threads (set25's block-size7 ran slower on the
#   H100 with 512 and 1,024-thread blocks, the model faster); dram-lat-w1/w32-p10..p99: the spread
#   of the single round trips such a barrier waits for the slowest of;
# - chase-l1-stride*: a chase over lines 2/16/128 KiB apart, warmed: the L1's set index (set29's
#   thomas, lanes 2 KiB apart, and private_hist moved the wrong way with the 448-set L1 at stop 32);
# - atom-lines-u32-s256..s16k: one lane a line over 32 lines 256 bytes to 16 KiB apart, against
#   c32 (consecutive, 6.0 cycles a request) and s64k (2.8): how consecutive lines share L2 slices.
# The SASS of barrier_stream and dram_lat_samples written in CUDA C (stop33/barrier_stream.cu).
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
B=chase-l1,chase-dram
B=$B,$($W calibrate --list 2>/dev/null | grep -o "chase-l1-stride[0-9a-z-]*\|barrier-dram-[a-z0-9]*\|dram-lat-w[0-9a-z-]*" | paste -sd,)
B=$B,atom-lines-u32-c32,atom-lines-u32-s256,atom-lines-u32-s1k,atom-lines-u32-s4k,atom-lines-u32-s16k,atom-lines-u32-s64k
echo "$B" > $out/benches.txt
for k in 1 2; do
  $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw33-$k.json --out $out/h100-33-$k.ini > $out/calibrate33-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate33-$k.txt
done
s=$out/sass33; mkdir -p $s
nvcc -cubin -arch=sm_90 -O3 -o $s/barrier_stream.cubin docs/validation/h100/stop33/barrier_stream.cu > $s/err.txt 2>&1
cuobjdump -sass $s/barrier_stream.cubin > $s/barrier_stream.sass 2>&1; rm -f $s/barrier_stream.cubin
