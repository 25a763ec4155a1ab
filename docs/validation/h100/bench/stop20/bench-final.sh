#!/bin/bash
# Stop 20's last device call: warpsim bench on the GPU machine's 16-core host, the portable build of
# main before the speed branch (.carry/warpsim-base, 2d558dc) and of the final main (.carry/warpsim,
# 2032a58: the speed branch, the spin-loop pause, SM ranges following the host threads' speed),
# alternated REPS times, timing mode on 1 and 2 host threads.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
lscpu | grep -E "Model name|^CPU\(s\)" > $out/host.txt
for i in $(seq 1 ${1:-4}); do
  for b in warpsim-base warpsim; do
    $C/$b bench --mode timing --threads 1,2 --format json >> $out/final-timing-$b.jsonl 2>/dev/null
  done
done
