#!/bin/sh
# SASS of every control-flow corpus kernel, instrumented as validate runs it, for reading where
# ptxas puts BSSY/BSYNC/BREAK/WARPSYNC (docs/validation/reconvergence.md). Needs nvcc and
# cuobjdump (a CUDA toolkit with its binary utilities); no GPU. Usage: tools/sass_corpus.sh [OUT]
set -e
out=${1:-docs/validation/h100/reconvergence/sass}
mkdir -p "$out"
for k in kernels/control/*.kir; do
  name=$(basename "$k" .kir)
  build/tools/warpsim emit-cuda "$k" --mode instrumented > "$out/$name.cu"
  nvcc -arch=sm_90 -cubin -o "$out/$name.cubin" "$out/$name.cu"
  cuobjdump -sass "$out/$name.cubin" > "$out/$name.sass"
  rm -f "$out/$name.cubin" "$out/$name.cu"
done
