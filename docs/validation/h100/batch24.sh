#!/bin/bash
# Stop 24's H100 call, from the repository root, with the portable build of this commit in .carry/
# (docs/validation/h100.md):
#   (in this order: 1, 2, 3, 4, so the calibration's fit, the longest step, comes last)
#   1. the fourth held-out set (timing-set/set24.txt, written before any of it ran on the GPU), one
#      `warpsim run --backend cuda` JSON each, packed unread into set24-out.tgz: the preset it is
#      scored with is fitted and committed before that file is opened;
#   2. Nsight Compute's DRAM and L2 read and write figures for the scatters (the new microbenchmarks
#      and set23's scatter and naive transpose) and the stream with bank conflicts;
#   3. SASS: the new microbenchmarks and every set24 kernel;
#   4. `warpsim calibrate --backend cuda` on the whole suite (the scatters and the stream with bank
#      conflicts new), end to end: raw figures (raw24.json), the preset fitted on the GPU machine
#      (h100-24.ini) and measured against predicted (calibrate24.txt).
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
s=$out/set24-out; mkdir -p $s
i=0
grep -v '^#' docs/validation/h100/timing-set/set24.txt | grep -v '^$' | while IFS='|' read -r family args; do
  i=$((i + 1)); n=$(printf %02d $i)
  # shellcheck disable=SC2086
  timeout 120 $W run $args --backend cuda --format json --warps default > $s/$n.json 2> $s/$n.err
  echo "$n|$family|$args|rc=$?" >> $s/index.txt
done
date >> $out/device.txt
nc=$out/ncu; mkdir -p $nc
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,lts__t_requests_op_write.sum
while IFS='|' read -r name kernel args; do
  # shellcheck disable=SC2086
  timeout 90 ncu --csv --cache-control all --clock-control none --metrics $m -k $kernel --launch-skip 3 \
    --launch-count 1 $W run $args --backend cuda --warps 0 > $nc/$name.csv 2>&1
done <<'LIST'
scatter-l2|scatter_hash4|kernels/microbench/mb_memory.kir --kernel scatter_hash4 --grid 1056 --block 256 --arg m=8388608 --arg mask=2097151 --buffer out=f32[2097152]:zeros
scatter-dram|scatter_hash4|kernels/microbench/mb_memory.kir --kernel scatter_hash4 --grid 1056 --block 256 --arg m=8388608 --arg mask=67108863 --buffer out=f32[67108864]:zeros
scatter-sector-dram|scatter_sector4|kernels/microbench/mb_memory.kir --kernel scatter_sector4 --grid 1056 --block 256 --arg m=8388608 --arg mask=67108863 --buffer out=f32[67108864]:zeros
stream-conflict-dram|stream_conflict4|kernels/microbench/mb_memory.kir --kernel stream_conflict4 --grid 1056 --block 256 --arg n=67108864 --buffer in=f32[67108864]:zeros --buffer out=f32[270336]:zeros
scatter23-64k|scatter|tests/data/cuda/heldout23/scatter.cu --grid 16384 --block 256 --arg n=4194304 --buffer in=f32[4194304]:iota --buffer idx=u32[4194304]:random:65536 --buffer out=f32[33554432]:zeros
scatter23-32m|scatter|tests/data/cuda/heldout23/scatter.cu --grid 16384 --block 256 --arg n=4194304 --buffer in=f32[4194304]:iota --buffer idx=u32[4194304]:random:33554432 --buffer out=f32[33554432]:zeros
transpose23-naive|transpose_naive|tests/data/cuda/heldout23/transpose_naive.cu --grid 128,512 --block 32,8 --arg rows=4096 --arg cols=4096 --buffer in=f32[16777216]:random --buffer out=f32[16777216]:zeros
LIST
date >> $out/device.txt
q=$out/sass; mkdir -p $q
$W emit-cuda kernels/microbench/mb_memory.kir > /tmp/mb_memory.cu 2> $q/mb_memory.err &&
  nvcc -arch=sm_90 -cubin -o /tmp/mb_memory.cubin /tmp/mb_memory.cu >> $q/mb_memory.err 2>&1
for f in scatter_hash4 scatter_sector4 stream_conflict4; do cuobjdump -sass -fun $f /tmp/mb_memory.cubin > $q/$f.sass 2>&1; done
for f in tests/data/cuda/heldout24/*.cu; do
  b=$(basename $f .cu)
  nvcc -arch=sm_90 -cubin -o /tmp/$b.cubin $f > $q/$b.err 2>&1 && cuobjdump -sass /tmp/$b.cubin > $q/$b.sass 2>&1
done
date >> $out/device.txt
timeout 380 $W calibrate --backend cuda --threads 16 --gpu-name h100 \
  --save $out/raw24.json --out $out/h100-24.ini > $out/calibrate24.txt 2>&1
echo "calibrate rc=$?" >> $out/calibrate24.txt
date >> $out/device.txt
cd $out && tar czf set24-out.tgz set24-out && rm -rf set24-out && tar czf sass.tgz sass && rm -rf sass && tar czf ncu.tgz ncu && rm -rf ncu
