#!/bin/bash
# Stop 35's third call (portable build of this commit in .carry/; an H200 this session, the same GH100
# SM as the H100): rows of a 2D tile (rows-l1-r*, rows-l2-r*: a warp load over 1-32 rows 33 lines
# apart, 128 / rows bytes of each; tools/calibrate/suite_l1.cpp), twice each, beside gather-l2 and
# stride-l1-s4/-s8; and Nsight Compute's breakdown of the L1's throughput, its wavefronts and the
# L2's requests for set27's tiled matmul at TILE=8 and 16 (scored before; batch35's profile read
# the L1 89% busy in both).
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
T=docs/validation/h100/timing-set
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
B=gather-l2,stride-l1-s4,stride-l1-s8,rows-l1-r1,rows-l1-r4,rows-l1-r8
B=$B,rows-l2-r1,rows-l2-r2,rows-l2-r4,rows-l2-r8,rows-l2-r32
for k in 1 2; do
  timeout 200 $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw35c-$k.json --out $out/h100-35c-$k.ini > $out/calibrate35c-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate35c-$k.txt
done
nc=$out/ncu35c; mkdir -p $nc
m="breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed"
m=$m,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
m=$m,smsp__sass_inst_executed_op_global_ld.sum,smsp__inst_executed.sum
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
m=$m,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
m=$m,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_read.sum
m=$m,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,sm__cycles_elapsed.avg
prof() {  # NAME KERNEL SET INDEX: line INDEX (not counting comments) of timing-set/SET.txt
  local name=$1 kern=$2 set=$3 idx=$4
  local line; line=$(grep -v '^#' $T/$set.txt | grep -v '^$' | sed -n ${idx}p)
  echo "$name|$line" >> $nc/index.txt
  # shellcheck disable=SC2046
  timeout 90 ncu --csv --page raw --cache-control all --clock-control none --metrics "$m" \
    -k $kern --launch-skip 0 --launch-count 1 \
    $W run $(echo "$line" | cut -d'|' -f2) --backend cuda --gpu-trace off > $nc/$name.csv 2> $nc/$name.err
  echo "rc=$?" >> $nc/$name.err
}
prof tile8 tiled_matmul set27 25
prof tile16 tiled_matmul set27 26
prof tile32 tiled_matmul set27 27
prof sbox-g8 sbox_rounds set28 30
cd $out && tar czf ncu35c.tgz ncu35c && rm -rf ncu35c
