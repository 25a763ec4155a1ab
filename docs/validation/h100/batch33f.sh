#!/bin/bash
# Stop 33's seventh H100 call (no GPU work): the SASS of dram-loaded-w2's loop (stream_dep) beside
# chase-dram's (chase_global) and chase_line's, from the CUDA C `warpsim emit-cuda` writes for them
# (nvcc -O3 -arch=sm_90, cuobjdump -sass): what between a load and the next load's address costs
# the stream 120 cycles on the H100 and 52 in the model (docs/validation/timing.md, stop 33).
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
s=$out/sass33f; mkdir -p $s
for k in stream_dep chase_global chase_line; do
  $C/warpsim emit-cuda kernels/microbench/mb_memory.kir --kernel $k > $s/$k.cu 2> $s/$k.err
  nvcc -cubin -arch=sm_90 -O3 -o $s/$k.cubin $s/$k.cu >> $s/$k.err 2>&1
  cuobjdump -sass $s/$k.cubin > $s/$k.sass 2>> $s/$k.err
  rm -f $s/$k.cubin
done
cd $out && tar czf sass33f.tgz sass33f && rm -rf sass33f
