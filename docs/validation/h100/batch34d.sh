#!/bin/bash
# Stop 34's fourth call: no GPU work. The device machine's cores replay the nine held-out sets with
# this commit's model (the H100 preset with memory.l1_index_fold 6, from chase-l1-224k; nothing else
# changed since stop 33's batch33d.sh). Each report has 540 s, so the tarball comes back within the
# call's limit.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
r=$out/reports34d; mkdir -p $r
for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
         h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
  timeout 540 $C/warpsim timing-report tests/data/timing/$f.json --threads 2 \
    --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
done
wait
cd $out && tar czf reports34d.tgz reports34d && rm -rf reports34d
