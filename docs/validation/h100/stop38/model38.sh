#!/bin/bash
# The model's side of stop 38's gathers (docs/validation/timing.md, "Stop 38"): gather_hash4 as
# calibrate's gather-l2-*m runs it (132 x 8 blocks of 256 threads, 2^23 loads), from a flushed L2,
# with the h100 preset (50 MiB of L2) and with the H200's 60 MiB. Output: model38.txt.
W=${W:-build/tools/warpsim}
for kib in 51200 61440; do
  for bits in 22 23 24 25; do
    echo -n "footprint $((4 << bits >> 20)) MiB, memory.l2_kib=$kib: "
    $W run kernels/microbench/mb_memory.kir --kernel gather_hash4 --grid 1056 --block 256 \
      --buffer in=f32[$((1 << bits))]:zeros --buffer out=f32[270336]:zeros --arg m=8388608 \
      --arg mask=$(((1 << bits) - 1)) --gpu-set memory.l2_kib=$kib --l2-start flushed --threads 1 |
      grep "global memory" | sed 's/.*L2 hit/L2 hit/'
  done
done
