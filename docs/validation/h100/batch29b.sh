#!/bin/bash
# Stop 29's second H100 call (the same warm machine): part 4 of batch29.sh again, packed into ncu.tgz
# (the first call's eleven CSV files were more than a call brings back).
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
n=$out/ncu; mkdir -p $n
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_sector_hit_rate.pct
while IFS='|' read -r name kernel args; do
  # shellcheck disable=SC2086
  timeout 60 ncu --csv --cache-control all --clock-control none --metrics $m -k $kernel --launch-skip 3 \
    --launch-count 1 $W run $args --backend cuda --warps 0 > $n/$name.csv 2>&1
done <<'LIST'
fft-span1|fft_stage|tests/data/cuda/heldout28/fft_stage.cu --grid 8192 --block 256 --arg logn=22 --arg logs=0 --buffer in=f32[8388608]:random --buffer tw=f32[4194304]:random --buffer out=f32[8388608]:zeros
fft-span32|fft_stage|tests/data/cuda/heldout28/fft_stage.cu --grid 8192 --block 256 --arg logn=22 --arg logs=5 --buffer in=f32[8388608]:random --buffer tw=f32[4194304]:random --buffer out=f32[8388608]:zeros
lbm-pull-2048|lbm_d2q9|tests/data/cuda/heldout28/lbm_d2q9.cu --nvcc-opt -DPUSH=0 --grid 64,256 --block 32,8 --arg width=2048 --arg height=2048 --buffer fin=f32[37748736]:random:0.2 --buffer fout=f32[37748736]:zeros
lbm-push-2048|lbm_d2q9|tests/data/cuda/heldout28/lbm_d2q9.cu --nvcc-opt -DPUSH=1 --grid 64,256 --block 32,8 --arg width=2048 --arg height=2048 --buffer fin=f32[37748736]:random:0.2 --buffer fout=f32[37748736]:zeros
redblack-4096|redblack|tests/data/cuda/heldout28/redblack.cu --nvcc-opt -DCOMPACT=0 --grid 128,512 --block 32,8 --arg n=4096 --arg h2=0.001 --buffer u=f32[16777216]:random --buffer f=f32[16777216]:random
redblack-2048|redblack|tests/data/cuda/heldout28/redblack.cu --nvcc-opt -DCOMPACT=0 --grid 64,256 --block 32,8 --arg n=2048 --arg h2=0.001 --buffer u=f32[4194304]:random --buffer f=f32[4194304]:random
hash-025|hash_insert|tests/data/cuda/heldout28/hash_insert.cu --grid 16384 --block 256 --arg n=4194304 --arg cap=16777216 --buffer keys=u32[4194304]:random:4294967295 --buffer table=u32[16777216]:zeros
hash-050|hash_insert|tests/data/cuda/heldout28/hash_insert.cu --grid 16384 --block 256 --arg n=4194304 --arg cap=8388608 --buffer keys=u32[4194304]:random:4294967295 --buffer table=u32[8388608]:zeros
hash-075|hash_insert|tests/data/cuda/heldout28/hash_insert.cu --grid 16384 --block 256 --arg n=4194304 --arg cap=5592405 --buffer keys=u32[4194304]:random:4294967295 --buffer table=u32[5592405]:zeros
stencil3d-march|stencil3d|tests/data/cuda/heldout28/stencil3d.cu --nvcc-opt -DMARCH=1 --grid 8,32 --block 32,8 --arg nx=256 --arg ny=256 --arg nz=256 --arg c0=0.4 --arg c1=0.1 --buffer in=f32[16777216]:random --buffer out=f32[16777216]:zeros
stencil3d-point|stencil3d|tests/data/cuda/heldout28/stencil3d.cu --nvcc-opt -DMARCH=0 --grid 8,64,128 --block 32,4,2 --arg nx=256 --arg ny=256 --arg nz=256 --arg c0=0.4 --arg c1=0.1 --buffer in=f32[16777216]:random --buffer out=f32[16777216]:zeros
LIST
cd $out && tar czf ncu.tgz ncu && rm -rf ncu
