#!/bin/bash
# Stop 36's third call: no GPU work. First whether NVRTC's compiles now bypass the driver's compute
# cache (warpsim sets CUDA_CACHE_DISABLE=1 itself since 591daba): set28's stencil3d imported three
# times in fresh processes must report ptxas's 32 registers each time (before, only the first compile
# on a machine did; later ones were cache hits with no ptxas log, so the IR's count set the
# occupancy). Then the device machine's cores replay the nine held-out sets with this commit's
# model: sm.lower_int64 1, sm.fold_widenings 0, sm.fuse_addresses 0, the int64 class at full width.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
R="tests/data/cuda/heldout28/stencil3d.cu --nvcc-opt -DMARCH=1 --grid 16,64 --block 32,8 --arg nx=512 --arg ny=512 --arg nz=64 --arg c0=0.4 --arg c1=0.1 --buffer in=f32[65536]:random --buffer out=f32[65536]:zeros --format json"
for k in 1 2 3; do
  echo "compile $k: $($C/warpsim run $R 2>&1 | grep -o '"registers_per_thread": *[0-9]*')" >> $out/cache36c.txt
done
ls -la $HOME/.nv/ComputeCache >> $out/cache36c.txt 2>&1
r=$out/reports36c; mkdir -p $r
for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
         h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
  timeout 540 $C/warpsim timing-report tests/data/timing/$f.json --threads 2 \
    --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
done
wait
cd $out && tar czf reports36c.tgz reports36c && rm -rf reports36c
