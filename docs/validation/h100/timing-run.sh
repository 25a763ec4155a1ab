#!/usr/bin/env bash
# Run on the H100 machine from the repository root, with build-portable/tools/warpsim carried (and
# libfmt/libspdlog beside it). Measures kernel time (median of 10 launches after 3 warm-ups, CUDA
# events) of the reduction family and the timing scenarios, and validates the matmul family's masks.
set -u
cd build-portable/tools
export LD_LIBRARY_PATH=.
W=./warpsim
out=${OUT:-/tmp/out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv > "$out/device.txt" 2>&1
runs=(
  "reduce-fig5-13 --set n=16777216 --set block=512"
  "reduce-fig5-15 --set n=16777216 --set block=512"
  "reduce-ece408-naive --set n=16777216 --set block=512"
  "reduce-ece408-improved --set n=16777216 --set block=512"
  "reduce-fig5-13"
  "reduce-fig5-15"
  "reduce-coarsened --set n=4194304 --set coarse=1"
  "reduce-coarsened --set n=4194304 --set coarse=2"
  "reduce-coarsened --set n=4194304 --set coarse=4"
  "reduce-coarsened --set n=4194304 --set coarse=8"
  "reduce-coarsened --set n=4194304 --set coarse=16"
  "reduce-full --set n=16777216"
  "vecadd --set n=16777216 --set block=256"
  "strided-copy --set n=4194304 --set stride=1"
  "strided-copy --set n=4194304 --set stride=8"
  "bank-conflicts --set stride=1 --set rounds=4096 --set blocks=264"
  "bank-conflicts --set stride=32 --set rounds=4096 --set blocks=264"
)
: > "$out/timing.jsonl"
for r in "${runs[@]}"; do
  echo "== $r" >&2
  $W run $r --backend cuda --format json --warps default > /tmp/one.json 2>> "$out/errors.txt" &&
    python3 -c "import json,sys; j=json.load(open('/tmp/one.json')); print(json.dumps({'run': sys.argv[1], 'kernel_ms': [l['kernel_ms'] for l in j['launches']], 'passed': j['check']['passed']}))" "$r" >> "$out/timing.jsonl"
done
for r in "matmul-naive" "matmul-tiled" "matmul-coarsened --set coarse=1" "matmul-coarsened --set coarse=4" \
         "matmul-coarsened --set coarse=16" "vecadd-coarsened" "gray-coarsened"; do
  name=$(echo "$r" | tr ' =' '__' | sed 's/--set_//g')
  mkdir -p /tmp/saved
  { echo "\$ warpsim validate $r --mode functional"; $W validate $r --mode functional --save "/tmp/saved/$name.json"; echo; } >> "$out/validate.txt" 2>&1
done
tar -czf "$out/saved.tgz" -C /tmp saved
ls -la "$out"
