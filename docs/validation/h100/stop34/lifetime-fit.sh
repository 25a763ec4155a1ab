#!/bin/bash
# Stop 34: one point of the grid that set sm.special_register_cycles and sm.warp_exit_cycles.
# `bash docs/validation/h100/stop34/lifetime-fit.sh I E` (from the repository root, after a build)
# runs the lifetime microbenchmarks on the simulator with the H100 preset and those two values, and
# prints each against the H100's figure (the mean of calibrate34*-1/-2.txt) and their mean error.
# The H100 preset at stop 34 has 10 and 6 (9.9%).
set -eu
I=${1:?special_register_cycles}; E=${2:?warp_exit_cycles}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
grep -v -E '^(special_register_cycles|warp_exit_cycles) ' sim/presets/h100.ini |
  sed "s/^warp_launch_cycles = .*/&\nspecial_register_cycles = $I\nwarp_exit_cycles = $E/" > "$tmp/p.ini"
cat > "$tmp/h100.txt" <<'REF'
dispatch-1024 1.345
dispatch-bar-1024 1.57
dispatch-sreg-1024 2.64
dispatch-tid-1024 2.10
dispatch-ctaid-1024 2.42
dispatch-param-1024 2.42
lifetime-bar-b256 1284
lifetime-bar-b512 1314
lifetime-bar-b1024 1476
lifetime-nobar-b1024 1478
lifetime-l2-bar-b1024 949
block-life-l2-b256 464
block-life-l2-b1024 843
block-life-dram-b256 1095
block-life-dram-b1024 1358
block-life-first-b1024 1254
block-start-l2-b1024 106
REF
build/tools/warpsim calibrate --backend sim --gpu "$tmp/p.ini" --benches "$(cut -d' ' -f1 "$tmp/h100.txt" | paste -sd,)" \
  --passes 0 --threads 2 | awk 'NR > 2 && NF > 5 && $1 != "mean" {print $1, $3}' > "$tmp/sim.txt"
awk 'NR == FNR {h[$1] = $2; next} ($1 in h) {e = $2 / h[$1] - 1; s += (e < 0 ? -e : e); n++;
     printf "%-24s H100 %8.2f  model %8.2f  %+6.1f%%\n", $1, h[$1], $2, 100 * e}
     END {printf "I=%s E=%s: mean error %.1f%% over %d\n", I, E, 100 * s / n, n}' I="$I" E="$E" "$tmp/h100.txt" "$tmp/sim.txt"
