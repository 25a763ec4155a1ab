#!/bin/bash
# Stop 21's fourth H100 call, from the repository root, the portable build in .carry/warpsim:
# Nsight Compute's DRAM read and write bytes, apart, for grey, vecadd 2^22 and the store
# microbenchmarks (whole and half lines, 16 MiB), to see where a kernel's stores go.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum
while IFS='|' read -r name kernel args; do
  # shellcheck disable=SC2086
  timeout 120 ncu --csv --cache-control all --clock-control none --metrics $m -k $kernel --launch-skip 3 \
    --launch-count 1 $W run $args --backend cuda --warps 0 > $out/$name.csv 2>&1
done <<'LIST'
gray-1920|gray|gray --set width=1920 --set height=1080
vecadd-2e22|vecadd|vecadd --set n=4194304 --set block=256
vecadd-2e24|vecadd|vecadd --set n=16777216 --set block=256
store-16m|stream_write4|kernels/microbench/mb_memory.kir --kernel stream_write4 --grid 1056 --block 256 --buffer out=f32[4194304]:zeros --arg n=4194304
store-half-16m|stream_write_half4|kernels/microbench/mb_memory.kir --kernel stream_write_half4 --grid 1056 --block 256 --buffer out=f32[8388608]:zeros --arg n=4194304
daxpy|daxpy|tests/data/cuda/daxpy.cu --grid 16384 --block 256 --arg n=4194304 --arg a=0.1 --buffer x=f64[4194304]:random --buffer y=f64[4194304]:random
LIST
