#!/usr/bin/env bash
# Runs the timing validation set on the GPU: one JSON report per line of set22.txt, in $1 (a folder).
# Usage (on the GPU machine, beside the portable warpsim): bash run-set22.sh OUTDIR
set -u
out="$1"; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
i=0
grep -v '^#' "$here/set22.txt" | while IFS='|' read -r family args; do
  i=$((i + 1))
  # shellcheck disable=SC2086
  ./warpsim run $args --backend cuda --format json > "$out/$(printf %02d $i).json" 2> "$out/$(printf %02d $i).err"
  echo "$i|$family|$args|rc=$?" >> "$out/index.txt"
done
