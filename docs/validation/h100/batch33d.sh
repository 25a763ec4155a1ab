#!/bin/bash
# Stop 33's fifth call: no GPU work. The device machine's cores replay the nine held-out sets with
# this commit's model but memory.share_burst_bytes = 0 (the bursts off: no batching across a barrier
# and the folded L1 index only), to tell the bursts' effect apart; the model with the bursts is
# replayed on the 2-core host with the same command (reports33a-host/, docs/validation/timing.md).
# Each report has 540 s, so the tarball comes back within the call's limit.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
sed 's/^share_burst_bytes = [0-9]*/share_burst_bytes = 0/' sim/presets/h100.ini > $out/h100-noburst.ini
r=$out/reports33d; mkdir -p $r
for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
         h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
  timeout 540 $C/warpsim timing-report tests/data/timing/$f.json --gpu $out/h100-noburst.ini --threads 2 \
    --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
done
wait
cd $out && tar czf reports33d.tgz reports33d && rm -rf reports33d
