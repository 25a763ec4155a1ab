#!/bin/bash
# Stop 37's second device call (portable build of this commit in .carry/; docs/validation/h100.md).
# 1. Integer atomics by operation (tools/calibrate/suite_atom.cpp, kernels/microbench/mb_atom.kir;
#    compared only), twice, beside atom-hot-u32 and atom-lines-u32-c1024.
# 2. The SASS of five held-out kernels, from the CUDA warpsim emits (what `--backend cuda` times)
#    and from their source (what nvcc users run), and of mb_atom.kir: NVRTC cubins made here with
#    warpsim's options (timing-set/nvc.cpp), in .carry/cubins37/, disassembled with cuobjdump.
# 3. Nsight Compute of set22's bfs (grid 256) and set28's hash_insert (cap 5592405).
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
B=atom-hot-u32,atom-hot-min-u32,atom-hot-max-u32,atom-hot-cas-u32,atom-hot-or-u32,atom-hot-exch-u32,atom-hot-inc-u32
B=$B,atom-lines-u32-c1024,atom-lines-cas-c1024,atom-lines-max-c1024,atom-hot3-addminmax,atom-hot3-add
for k in 1 2; do
  timeout 200 $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw37b-$k.json --out $out/h100-37b-$k.ini > $out/calibrate37b-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate37b-$k.txt
done
q=$out/sass37b; mkdir -p $q
for c in $C/cubins37/*.cubin; do
  cuobjdump -sass $c > $q/$(basename $c .cubin).sass 2>&1
done
nc=$out/ncu37b; mkdir -p $nc
secs="--section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section ComputeWorkloadAnalysis"
stalls="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
raw="l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg,l1tex__data_bank_conflicts_pipe_lsu.sum,gpu__time_duration.sum"
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
prof bfs-256 bfs_frontier $D/bfs_frontier.cu --grid 256 --block 256 --arg frontier_size=65536 --arg current=0 --buffer row_ptr=u32[4194305]:iota:0:8 --buffer col_idx=u32[33554432]:random:4194304 --buffer level=u32[4194304]:const:4294967295 --buffer frontier=u32[65536]:random:4194304 --buffer next=u32[524288]:zeros --buffer next_size=u32[1]:zeros
prof hash-5592405 hash_insert $D/heldout28/hash_insert.cu --grid 16384 --block 256 --arg n=4194304 --arg cap=5592405 --buffer keys=u32[4194304]:random:4294967295 --buffer table=u32[5592405]:zeros
cd $out && tar czf sass37b.tgz sass37b && rm -rf sass37b && tar czf ncu37b.tgz ncu37b && rm -rf ncu37b
