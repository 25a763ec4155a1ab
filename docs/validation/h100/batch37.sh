#!/bin/bash
# Stop 37's first device call (portable build of this commit in .carry/; docs/validation/h100.md).
# Nsight Compute of the held-out runs the model misses most (docs/validation/timing.md, stop 36's
# replay): where each spends its time on the GPU (stall reasons, L1/L2 hit rates, wavefronts, DRAM
# bytes), to compare with the model's own figures for the same run (warpsim run ARGS --mode timing).
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
nc=$out/ncu37; mkdir -p $nc
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
prof conv1d-r16 conv1d $D/heldout24/conv1d.cu --grid 8192 --block 256 --arg n=2097152 --arg r=16 --buffer in=f32[2097152]:random --buffer filter=f32[33]:random --buffer out=f32[2097152]:zeros
prof conv1d-r4 conv1d $D/heldout24/conv1d.cu --grid 8192 --block 256 --arg n=2097152 --arg r=4 --buffer in=f32[2097152]:random --buffer filter=f32[9]:random --buffer out=f32[2097152]:zeros
prof tanimoto-w64 tanimoto $D/heldout29/tanimoto.cu --nvcc-opt -DW=64 --grid 1024 --block 256 --arg n=262144 --buffer db=u32[16777216]:random --buffer query=u32[64]:random --buffer sim=f32[262144]:zeros
prof tanimoto-w4 tanimoto $D/heldout29/tanimoto.cu --nvcc-opt -DW=4 --grid 16384 --block 256 --arg n=4194304 --buffer db=u32[16777216]:random --buffer query=u32[4]:random --buffer sim=f32[4194304]:zeros
prof merge-i64 merge_path $D/heldout29/merge_path.cu --nvcc-opt -DITEMS=64 --grid 1024 --block 256 --arg na=10485760 --arg nb=6291456 --buffer a=u32[10485760]:iota:0:3 --buffer b=u32[6291456]:iota:1:5 --buffer c=u32[16777216]:zeros
prof histo-1024 histo_global $D/heldout/histo_global.cu --grid 1056 --block 256 --arg n=4194304 --buffer data=u32[4194304]:random:1024 --buffer histo=u32[1024]:zeros
prof reduce-u64-warp reduce_u64 $D/heldout25/reduce_u64.cu --nvcc-opt -DPER_WARP --grid 32768 --block 256 --arg n=8388608 --buffer in=u32[8388608]:random --buffer sum=u64[1]:zeros --buffer lo=u32[1]:const:4294967295 --buffer hi=u32[1]:zeros
prof transpose-pad0 transpose_smem $D/heldout23/transpose_smem.cu --nvcc-opt -DPAD=0 --grid 128,128 --block 32,8 --arg rows=4096 --arg cols=4096 --buffer in=f32[16777216]:random --buffer out=f32[16777216]:zeros
prof scatter-64k scatter $D/heldout23/scatter.cu --grid 16384 --block 256 --arg n=4194304 --buffer in=f32[4194304]:iota --buffer idx=u32[4194304]:random:65536 --buffer out=f32[33554432]:zeros
prof stencil3d-m1 stencil3d $D/heldout28/stencil3d.cu --nvcc-opt -DMARCH=1 --grid 8,32 --block 32,8 --arg nx=256 --arg ny=256 --arg nz=256 --arg c0=0.4 --arg c1=0.1 --buffer in=f32[16777216]:random --buffer out=f32[16777216]:zeros
prof bsearch-6144 bsearch_stage $D/heldout26/bsearch_stage.cu --nvcc-opt -DSTAGE=6144 --grid 8192 --block 128 --arg n=16777216 --arg nq=1048576 --buffer keys=u32[16777216]:iota:0:3 --buffer queries=u32[1048576]:random:50331648 --buffer out=u32[1048576]:zeros
prof batch-mm4-v0 batch_mm4 $D/heldout28/batch_mm4.cu --nvcc-opt -DVAR=0 --grid 4096 --block 256 --arg batch=1048576 --buffer A=f32[16777216]:random --buffer B=f32[16777216]:random --buffer C=f32[16777216]:zeros
prof dct8x8 dct8x8 $D/heldout25/dct8x8.cu --grid 128,512 --block 32,8 --arg width=4096 --buffer in=f32[16777216]:random --buffer coef=f32[64]:random --buffer out=f32[16777216]:zeros
prof spmv-64k spmv_csr $D/spmv_csr.cu --grid 4096 --block 256 --arg rows=1048576 --buffer row_ptr=u32[1048577]:iota:0:8 --buffer col_idx=u32[8388608]:random:65536 --buffer values=f32[8388608]:random --buffer x=f32[65536]:random --buffer y=f32[1048576]:zeros
prof thomas-i0 thomas $D/heldout29/thomas.cu --nvcc-opt -DINTER=0 --grid 512 --block 128 --arg n=64 --arg s=65536 --buffer a=f32[4194304]:random --buffer b=f32[4194304]:random --buffer c=f32[4194304]:random --buffer d=f32[4194304]:random --buffer cp=f32[4194304]:zeros --buffer x=f32[4194304]:zeros
cd $out && tar czf ncu37.tgz ncu37 && rm -rf ncu37
