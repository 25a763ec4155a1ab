#!/bin/bash
# Stop 31's second H100 call (same session, portable build of this commit in .carry/): what makes a
# fence slower with 64 warps an SM fencing (fence-gl-busy, 1,324-1,332 cycles against fence-gl's
# 674-679 in batch31.sh): one warp on every SM (fence-gl-chip), 8 warps an SM (fence-gl-sm8), and
# 64 warps an SM fencing with no stores (fence-gl-bare-busy), beside fence-gl and fence-gl-busy; twice.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
for k in 1 2; do
  $W calibrate --backend cuda --gpu-name h100 --benches fence-gl,fence-gl-chip,fence-gl-sm8,fence-gl-busy,fence-gl-bare-busy \
    --passes 1 --save $out/raw31b-$k.json --out $out/h100-31b-$k.ini > $out/calibrate31b-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate31b-$k.txt
done
