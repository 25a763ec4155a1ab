#!/bin/sh
# Functional-mode speed before and after the IR grew for PTX (issue 10): main's binary and this
# branch's, alternated six times in one session, then host instructions per launch under
# callgrind (deterministic) on the small cases. Usage: bench-ab.sh BEFORE AFTER OUTDIR
set -e
before=$1 after=$2 out=$3
mkdir -p "$out"
for i in 1 2 3 4 5 6; do
  "$before" bench --mode functional --threads 1 --format json | tr -d '\n' >> "$out/before.jsonl"; echo >> "$out/before.jsonl"
  "$after" bench --mode functional --threads 1 --format json | tr -d '\n' >> "$out/after.jsonl"; echo >> "$out/after.jsonl"
done
