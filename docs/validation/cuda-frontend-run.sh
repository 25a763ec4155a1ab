#!/bin/sh
# The CUDA front end on the H100: every .cu kernel of tests/data/cuda/ validated against the GPU
# (outputs, warps, every warp's active mask per basic block). Run from the repository root after
# building; results go to docs/validation/cuda-frontend.md.
set -x
W=build/tools/warpsim
$W validate tests/data/cuda/saxpy.cu --grid 4 --block 256 --arg n=1000 --arg a=2 --buffer x=f32[1000]:random --buffer y=f32[1000]:random
$W validate tests/data/cuda/vecadd.cu --grid 16 --block 64 --arg n=1003 --buffer a=f32[1003]:random --buffer b=f32[1003]:random --buffer c=f32[1003]:zeros
$W validate tests/data/cuda/divergent_loop.cu --grid 2 --block 64 --buffer out=u32[128]:zeros
$W validate tests/data/cuda/reduce_fig5_13.cu --grid 1 --block 256 --buffer input=f32[512]:random --buffer output=f32[1]:zeros
$W validate tests/data/cuda/reduce_fig5_15.cu --grid 1 --block 256 --buffer input=f32[512]:random --buffer output=f32[1]:zeros
$W validate tests/data/cuda/warp_sum.cu --grid 4 --block 128 --arg n=500 --buffer in=f32[500]:random --buffer total=f32[1]:zeros
