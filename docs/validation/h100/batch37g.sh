#!/bin/bash
# Stop 37's seventh call: no GPU work. The device machine's cores replay the nine held-out sets
# with this commit's model (2946308: integer atomics' L2 slices by 4-line granule,
# memory.l2_slice_line_shift 2, and the chip's integer atomic line rate,
# memory.atomic_lines_per_cycle 26.7), to keep or withdraw them.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
r=$out/reports37g; mkdir -p $r
for f in h100-validation h100-validation-stop22 h100-validation-stop23 h100-validation-stop24 h100-validation-stop25 \
         h100-validation-stop26 h100-validation-stop27 h100-validation-stop28 h100-validation-stop29; do
  timeout 540 $C/warpsim timing-report tests/data/timing/$f.json --threads 2 \
    --markdown $r/$f.md --svg $r/$f.svg > $r/$f.txt 2> $r/$f.err &
done
wait
cd $out && tar czf reports37g.tgz reports37g && rm -rf reports37g
