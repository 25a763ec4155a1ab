#!/bin/bash
# Stop 38's first device call (portable build of this commit in .carry/; docs/validation/h100.md).
# The device is an H200 (the H100's GH100 SM and L2 design, but 60 MiB of L2 where the H100 has 50,
# as batch38b.sh found; HBM3e memory): what it measures of the
# SM and the L2 holds for the H100, its DRAM figures do not.
# 1. The L2's capacity for lines every SM reads: gather-l2-16m/-32m/-64m/-128m (calibrate suite,
#    compared only) beside gather-l2 (8 MiB) and gather-dram (256 MiB), and one SM's chase over
#    24/32/40 MiB (chase-l2-*m, measured on the H100 at stops 31-32), twice; then Nsight Compute's
#    L2 hit rate and DRAM bytes for each gather.
# 2. The device's L2 size and memory as the CUDA runtime reports them (l2.cu, built here with nvcc).
# 3. Nsight Compute of the first set's reduce-coarsened at coarse 1 and 2 (SM-bound: the H100
#    measured 14.67 and 7.89 us, the model 11.11 and 7.36) and of set26's bsearch at STAGE=512 and
#    12288 and set28's hash_insert at its three capacities (L2 hit rates and DRAM bytes).
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
cat > /tmp/l2.cu <<'CU'
#include <cstdio>
#include <cuda_runtime.h>
int main() {
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
  printf("%s: SMs %d, L2 %d bytes, persisting L2 max %d, bus %d bits, memory clock %d kHz, global %zu bytes\n",
         p.name, p.multiProcessorCount, p.l2CacheSize, p.persistingL2CacheMaxSize, p.memoryBusWidth,
         p.memoryClockRate, p.totalGlobalMem);
}
CU
(nvcc -o /tmp/l2 /tmp/l2.cu && /tmp/l2) >> $out/device.txt 2>&1
B=gather-l2,gather-l2-16m,gather-l2-32m,gather-l2-64m,gather-l2-128m,gather-dram,chase-l2-24m,chase-l2-32m,chase-l2-40m
for k in 1 2; do
  timeout 240 $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 0 \
    --save $out/raw38a-$k.json > $out/calibrate38a-$k.txt 2>&1
  echo "rc=$? at ${SECONDS}s" >> $out/calibrate38a-$k.txt
done
nc=$out/ncu38a; mkdir -p $nc
raw="l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,lts__t_sector_op_read_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg,gpu__time_duration.sum"
for b in gather-l2 gather-l2-16m gather-l2-32m gather-l2-64m gather-l2-128m gather-dram; do
  timeout 120 ncu --csv --page raw --clock-control none --metrics "$raw" -k gather_hash4 \
    $W calibrate --backend cuda --gpu-name h100 --benches $b --passes 0 > $nc/$b.csv 2> $nc/$b.err
  echo "rc=$? at ${SECONDS}s" >> $nc/$b.err
done
secs="--section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section SchedulerStats"
stalls="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
prof() {  # NAME KERNEL ARGS...
  local name=$1 kern=$2; shift 2
  echo "$name|$kern|$*" >> $nc/index.txt
  timeout 90 ncu --csv --page details --cache-control all --clock-control none $secs --metrics "$stalls" \
    -k $kern --launch-skip 0 --launch-count 1 \
    $W run "$@" --backend cuda --gpu-trace off > $nc/$name.csv 2> $nc/$name.err
  echo "rc=$?" >> $nc/$name.err
  timeout 60 ncu --csv --page raw --cache-control all --clock-control none --metrics "$raw" \
    -k $kern --launch-skip 0 --launch-count 1 \
    $W run "$@" --backend cuda --gpu-trace off > $nc/$name-raw.csv 2> $nc/$name-raw.err
  echo "rc=$? at ${SECONDS}s" >> $nc/$name-raw.err
}
D=tests/data/cuda
prof coarse1 reduce_coarsened reduce-coarsened --set n=4194304 --set coarse=1
prof coarse2 reduce_coarsened reduce-coarsened --set n=4194304 --set coarse=2
prof bsearch-512 bsearch_stage $D/heldout26/bsearch_stage.cu --nvcc-opt -DSTAGE=512 --grid 8192 --block 128 --arg n=16777216 --arg nq=1048576 --buffer keys=u32[16777216]:iota:0:3 --buffer queries=u32[1048576]:random:50331648 --buffer out=u32[1048576]:zeros
prof bsearch-12288 bsearch_stage $D/heldout26/bsearch_stage.cu --nvcc-opt -DSTAGE=12288 --grid 8192 --block 128 --arg n=16777216 --arg nq=1048576 --buffer keys=u32[16777216]:iota:0:3 --buffer queries=u32[1048576]:random:50331648 --buffer out=u32[1048576]:zeros
for cap in 16777216 8388608 5592405; do
  prof hash-$cap hash_insert $D/heldout28/hash_insert.cu --grid 16384 --block 256 --arg n=4194304 --arg cap=$cap --buffer keys=u32[4194304]:random:4294967295 --buffer table=u32[$cap]:zeros
done
cd $out && tar czf ncu38a.tgz ncu38a && rm -rf ncu38a
