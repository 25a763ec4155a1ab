#!/bin/bash
# Stop 38's fourth device call (an H200, 60 MiB of L2): stop38/chase38.cu, built here with nvcc.
# One random cycle over 24, 32, 40, 48 and 64 MiB walked by 1 block (calibrate's chase-l2-*m) and
# by 132 blocks of one thread (the SMs together touch every line once, then each times 8,192 loads
# of lines another SM brought in): does the L2 keep what many SMs brought in, as it keeps what one
# SM did? Twice each.
set -u
out=${OUT:?}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/chase38.txt 2>&1
nvcc -arch=sm_90 -O2 -o /tmp/chase38 docs/validation/h100/stop38/chase38.cu >> $out/chase38.txt 2>&1
for k in 1 2; do
  for mib in 24 32 40 48 64; do
    for b in 1 132; do timeout 120 /tmp/chase38 $mib $b >> $out/chase38.txt 2>&1; done
  done
done
echo "done at ${SECONDS}s" >> $out/chase38.txt
