#!/usr/bin/env bash
# Runs a timing validation set on the GPU: one JSON report per line of the set file (set.txt, or
# set22.txt for the second set), in $1 (a folder).
# Usage (on the GPU machine, beside the portable warpsim): bash run-set.sh OUTDIR [SET_FILE [BUILD]]
# BUILD (stop 37): source (the default: a .cu kernel's own PTX is timed) or emitted (the CUDA
# warpsim writes from the IR, which every set up to set29 was measured with; docs/cuda-frontend.md
# "On a GPU"): pass emitted to measure a set again as it was measured.
set -u
out="$1"; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
set_file="${2:-$here/set.txt}"
build="${3:-source}"
i=0
grep -v '^#' "$set_file" | while IFS='|' read -r family args; do
  i=$((i + 1))
  # shellcheck disable=SC2086
  ./warpsim run $args --backend cuda --gpu-build "$build" --format json > "$out/$(printf %02d $i).json" 2> "$out/$(printf %02d $i).err"
  echo "$i|$family|$args|rc=$?" >> "$out/index.txt"
done
