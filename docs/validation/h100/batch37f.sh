#!/bin/bash
# Stop 37's sixth device call (portable build of 44fff91 in .carry/): the timed build end to end on
# a GPU. validate and run of a .cu kernel with its own build (the default) and with the emitted
# one, a .kir scenario (emitted, its only build), and a validate --save of the source build
# replayed; each output names the build it timed.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
S="tests/data/cuda/saxpy.cu --grid 4 --block 256 --arg n=1024 --arg a=2 --buffer x=f32[1024]:iota --buffer y=f32[1024]:zeros"
K="tests/data/cuda/heldout24/conv1d.cu --grid 8192 --block 256 --arg n=2097152 --arg r=16 --buffer in=f32[2097152]:random --buffer filter=f32[33]:random --buffer out=f32[2097152]:zeros"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv
  echo "== validate saxpy.cu (default build)"; $W validate $S --save $out/saxpy-source.json; echo "rc=$?"
  echo "== validate saxpy.cu --gpu-build emitted"; $W validate $S --gpu-build emitted; echo "rc=$?"
  echo "== validate saxpy.cu --replay of the saved source build"; $W validate $S --replay $out/saxpy-source.json; echo "rc=$?"
  echo "== run conv1d.cu r=16 --backend cuda (default build)"; $W run $K --backend cuda; echo "rc=$?"
  echo "== run conv1d.cu r=16 --backend cuda --gpu-build emitted"; $W run $K --backend cuda --gpu-build emitted; echo "rc=$?"
  echo "== run vecadd --backend cuda (a .kir scenario)"; $W run vecadd --backend cuda; echo "rc=$?"
} > $out/end37f.txt 2>&1
