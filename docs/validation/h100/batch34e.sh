#!/bin/bash
# Stop 34's fifth call: no GPU work. The device machine's cores replay the nine held-out sets with
# this commit's model: batch34d.sh's (memory.l1_index_fold 6) with sm.special_register_cycles 10 and
# sm.warp_exit_cycles 6, fitted to batch34/34b/34c's lifetime microbenchmarks. Each report has 540 s,
# so the tarball comes back within the call's limit.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
r=$out/reports34e; mkdir -p $r
for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
         h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
  timeout 540 $C/warpsim timing-report tests/data/timing/$f.json --threads 2 \
    --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
done
wait
cd $out && tar czf reports34e.tgz reports34e && rm -rf reports34e
