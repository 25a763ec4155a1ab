#!/bin/bash
# Stop 35's fourth call (portable build of this commit in .carry/; an H200 this session, the same
# GH100 SM as the H100): one L1 data pipe or two (pipe-*: 64 warps an SM, each trip four L1-hit
# global loads over 4 rows or 1 line, eight conflict-free shared loads, or both; mb_l1.kir's
# pipe_mix), twice each, beside pipe's neighbours tput-shared-s32 and rows-l1-r4. batch35c's Nsight
# Compute profile of set27's tiled matmul (scored before) counted its shared loads' wavefronts and its
# global loads' passes in one data pipe, 85% busy at TILE=8.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
B=tput-shared-s32,rows-l1-r4,pipe-rows4,pipe-rows1,pipe-shared,pipe-rows4-shared,pipe-rows1-shared
for k in 1 2; do
  timeout 200 $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw35d-$k.json --out $out/h100-35d-$k.ini > $out/calibrate35d-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate35d-$k.txt
done
