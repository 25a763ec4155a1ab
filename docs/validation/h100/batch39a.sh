#!/bin/bash
# Stop 39's first device call (an H200: the H100's GH100 SM and L2 design, 60 MiB of L2, HBM3e;
# portable build of this commit in .carry/, docs/validation/h100.md).
# 1. Which SMs share a half of the L2 (stop39/probe39.cu `map`, twice): for every SM A, A walks a
#    fresh 1 MiB region and SM 0 walks it again, timed; then the same from the SM farthest from 0.
# 2. Gathers from one half's SMs, from the other's, from as many SMs mixed, and from all, over 32
#    and 64 MiB (probe39 `gather`): Nsight Compute's DRAM bytes and L2 hit rate, cold and warm.
# 3. Nsight Compute of set28's red-black (COMPACT 0 and 1, n = 4096: the H100 measured 73.6 and
#    61.1 us, the model 66.1 for both) and set25's reg_window (R = 8 and 48).
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
S=docs/validation/h100/stop39
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv > $out/device.txt 2>&1
nvcc -arch=sm_90 -O2 -o /tmp/probe39 $S/probe39.cu >> $out/device.txt 2>&1
for k in 1 2; do
  timeout 120 /tmp/probe39 map $out/side$k.txt > $out/map$k.txt 2>&1
  echo "rc=$? at ${SECONDS}s" >> $out/map$k.txt
done
m="dram__bytes_read.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum"
res=$out/gather39.txt
for bits in 23 24; do
  for sel in side other mixed all; do
    echo "== bits $bits sel $sel" >> $res
    /tmp/probe39 gather $bits $out/side1.txt $sel >> $res 2>&1
    timeout 60 ncu --csv --page raw --cache-control all --clock-control none --metrics "$m" -k gather_sel --launch-count 1 \
      /tmp/probe39 gather $bits $out/side1.txt $sel 2>&1 | grep -E '^"[0-9]' | sed 's/^/cold /' >> $res
    timeout 60 ncu --csv --page raw --cache-control none --clock-control none --metrics "$m" -k gather_sel --launch-skip 2 --launch-count 1 \
      /tmp/probe39 gather $bits $out/side1.txt $sel 2>&1 | grep -E '^"[0-9]' | sed 's/^/warm /' >> $res
  done
done
echo "done at ${SECONDS}s" >> $res
nc=$out/ncu39a; mkdir -p $nc
raw="l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
secs="--section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section SchedulerStats"
stalls="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
prof() {  # NAME KERNEL ARGS...
  local name=$1 kern=$2; shift 2
  echo "$name|$kern|$*" >> $nc/index.txt
  timeout 90 ncu --csv --page details --cache-control all --clock-control none $secs --metrics "$stalls" \
    -k $kern --launch-skip 0 --launch-count 1 $W run "$@" --backend cuda --gpu-trace off > $nc/$name.csv 2> $nc/$name.err
  timeout 60 ncu --csv --page raw --cache-control all --clock-control none --metrics "$raw" \
    -k $kern --launch-skip 0 --launch-count 1 $W run "$@" --backend cuda --gpu-trace off > $nc/$name-raw.csv 2>> $nc/$name.err
  echo "rc=$? at ${SECONDS}s" >> $nc/$name.err
}
D=tests/data/cuda
for c in 0 1; do
  g=128; [ $c = 1 ] && g=64
  prof redblack$c redblack $D/heldout28/redblack.cu --nvcc-opt -DCOMPACT=$c --grid $g,512 --block 32,8 --arg n=4096 --arg h2=0.001 \
    --buffer u=f32[16777216]:random --buffer f=f32[16777216]:random
done
prof regwin8 reg_window $D/heldout25/reg_window.cu --nvcc-opt -DR=8 --grid 3072 --block 256 --arg n=6291456 --buffer in=f32[6291456]:random --buffer out=f32[6291456]:zeros
prof regwin48 reg_window $D/heldout25/reg_window.cu --nvcc-opt -DR=48 --grid 512 --block 256 --arg n=6291456 --buffer in=f32[6291456]:random --buffer out=f32[6291456]:zeros
tar czf $out/ncu39a.tgz -C $out ncu39a && rm -rf $nc
echo "all done at ${SECONDS}s" >> $out/device.txt
