#!/bin/bash
# callgrind host instructions, stop 18 main (warpsim-s18) vs this stop (warpsim), portable Release
cd /work/main
export LD_LIBRARY_PATH=/work/main/.carry-bench
for b in warpsim-s18 warpsim; do
  for spec in "vecadd --set n=1048576 --set block=256 --mode timing" "gray --set width=960 --set height=540 --mode timing" "vecadd --set n=4194304 --set block=256 --mode functional" "reduce-fig5-15 --set n=4194304 --mode functional"; do
    out=/tmp/cg19-$b-$(echo $spec | tr ' =' '__').out
    valgrind --tool=callgrind --callgrind-out-file=$out .carry-bench/$b run $spec > /dev/null 2>&1
    echo "$b | $spec | $(callgrind_annotate $out 2>/dev/null | grep -m1 'PROGRAM TOTALS')"
  done
done
