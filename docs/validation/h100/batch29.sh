#!/bin/bash
# Stop 29's H100 call, from the repository root with the portable build of this commit in
# .carry/ (docs/validation/h100.md):
#   1. the ninth held-out set (timing-set/set29.txt, committed before any of it ran on the GPU),
#      one `warpsim run --backend cuda` JSON each, packed unread into set29-out.tgz; a run whose
#      warp trace does not fit runs again with --gpu-trace off (the kernel time only). The model it
#      is scored with is committed before that file is opened;
#   2. calibrate --benches launch, four times: the launch overhead subtracted from every set29 run;
#   3. SASS of every set29 kernel as the GPU ran it (NVRTC's cubins of the emitted CUDA, made
#      before the call by timing-set/cubins.sh WARPSIM NVC .carry/cubins29 set29.txt);
#   4. Nsight Compute's DRAM and L2 read and write bytes of set28's misses that involve stores or
#      footprints (fft span 1, lbm push and pull, red-black in place, hash inserts, 3D stencil
#      marching), to see what the GPU moves where the model's write path is in doubt.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
s=$out/set29-out; mkdir -p $s
i=0
grep -v '^#' docs/validation/h100/timing-set/set29.txt | grep -v '^$' | while IFS='|' read -r family args; do
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
for i in 1 2 3 4; do
  timeout 60 $W calibrate --backend cuda --threads 16 --gpu-name h100 --benches launch \
    --save $out/raw29-$i.json --out $out/h100-29-$i.ini > $out/calibrate29-$i.txt 2>&1
  echo "calibrate rc=$?" >> $out/calibrate29-$i.txt
done
date >> $out/device.txt
q=$out/sass/cubins29; mkdir -p $q
for c in .carry/cubins29/*.cubin; do
  cuobjdump -sass $c > $q/$(basename $c .cubin).sass 2>&1
done
date >> $out/device.txt
cd $out && tar czf set29-out.tgz set29-out && rm -rf set29-out && tar czf sass.tgz sass && rm -rf sass &&
  tar czf raw29.tgz raw29-*.json h100-29-*.ini calibrate29-*.txt && rm -f raw29-*.json h100-29-*.ini calibrate29-*.txt
cd - > /dev/null
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
date >> $out/device.txt
