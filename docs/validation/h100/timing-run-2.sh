#!/usr/bin/env bash
# Second H100 run: simulator speed on the GPU machine's idle CPU (warpsim bench, both modes, 1 and 2
# host threads), kernel times of the matmul coarsening family, and the shared-memory pointer chase.
set -u
cd build-portable/tools
export LD_LIBRARY_PATH=.
W=./warpsim
out=${OUT:-/tmp/out}
mkdir -p "$out"
lscpu | grep -E "Model name|^CPU\(s\)" > "$out/host.txt"
$W bench --threads 1,2 --mode timing,functional --format json > "$out/bench.json" 2> "$out/bench-errors.txt"
: > "$out/timing.jsonl"
runs=()
for size in "rows=256 --set inner=256 --set cols=256" "rows=512 --set inner=512 --set cols=512"; do
  for tile in 16 32; do
    runs+=("matmul-naive --set $size --set tile=$tile" "matmul-tiled --set $size --set tile=$tile")
    for c in 1 2 4 8 16; do runs+=("matmul-coarsened --set $size --set tile=$tile --set coarse=$c"); done
  done
done
runs+=("bank-conflicts --set stride=1 --set rounds=4096 --set blocks=264"
       "bank-conflicts --set stride=2 --set rounds=4096 --set blocks=264"
       "bank-conflicts --set stride=4 --set rounds=4096 --set blocks=264"
       "bank-conflicts --set stride=32 --set rounds=4096 --set blocks=264")
for r in "${runs[@]}"; do
  $W run $r --backend cuda --format json --warps default > /tmp/one.json 2>> "$out/errors.txt" &&
    python3 -c "import json,sys; j=json.load(open('/tmp/one.json')); print(json.dumps({'run': sys.argv[1], 'kernel_ms': [l['kernel_ms'] for l in j['launches']], 'passed': j['check']['passed']}))" "$r" >> "$out/timing.jsonl"
done
ls -la "$out"
