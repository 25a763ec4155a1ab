#!/bin/sh
# Issue 13, after the follow-up: where does ptxas put YIELD (the instruction behind ctl-spin-wait's
# masks, docs/design.md "How the H100 reconverges")? The volta model gives a YIELD to loops whose
# exit depends on an atomic's result in the loop (sim/spin_loops.cpp), the narrowest reading of
# spin_wait.sass. This compiles probe loops that tell the candidate rules apart, plus the CUDA
# front end's softmax_row as validate builds it (its strided loops' lanes leave without meeting on
# the H100, 18 of 615 entries), and saves a softmax recording to replay. The YIELD counts were
# already read on a machine without cuobjdump (yield-placement.txt, cubin_control_ops.py); what
# this adds is the full SASS listing (cuobjdump) and, on the H100, the softmax recording (copy it to
# tests/data/ to replay it). Needs nvcc and cuobjdump; the last step needs the H100. Run from the
# repository root after building: docs/validation/h100/reconvergence/yield_probe.sh [OUT]
set -e
out=${1:-h100-yield-probe}
mkdir -p "$out"
cat > "$out/probes.cu" <<'CU'
// Each loop's exit condition comes from a different source; the branch conditions go through an
// empty asm as in warpsim's instrumented build, so ptxas cannot compute trip counts.
__device__ __forceinline__ bool hide(bool p) { unsigned v = p; asm volatile("" : "+r"(v)); return v != 0u; }
extern "C" __global__ void poll_atomic(unsigned* flag, unsigned* out) {      // the model: YIELD
  if (threadIdx.x & 1) while (hide(atomicAdd(flag, 0u) == 0u)) ;
  out[threadIdx.x] = 1;
}
extern "C" __global__ void poll_volatile(volatile unsigned* flag, unsigned* out) {  // volatile load
  if (threadIdx.x & 1) while (hide(*flag == 0u)) ;
  out[threadIdx.x] = 1;
}
extern "C" __global__ void poll_plain(const unsigned* next, unsigned* out) {  // linked list walk
  unsigned i = threadIdx.x, n = 0;
  while (hide(i != 0u)) { i = next[i]; ++n; }
  out[threadIdx.x] = n;
}
extern "C" __global__ void cas_lock(unsigned* lock, unsigned* count) {      // atomicCAS spin lock
  while (hide(atomicCAS(lock, 0u, 1u) != 0u)) ;
  *count += 1;
  atomicExch(lock, 0u);
}
extern "C" __global__ void atomic_unused(unsigned* c, unsigned* out, unsigned n) {  // atomic, counted exit
  unsigned i = threadIdx.x, s = 0;
  while (hide(i < n)) { s += atomicAdd(c, 1u); i += blockDim.x; }
  out[threadIdx.x] = s;
}
extern "C" __global__ void strided_exp(const float* in, float* out, unsigned n) {  // softmax's second loop
  float s = 0.0f;
  for (unsigned c = threadIdx.x; hide(c < n); c += blockDim.x) s += expf(in[c]);
  out[threadIdx.x] = s;
}
extern "C" __global__ void strided_max(const float* in, float* out, unsigned n) {  // softmax's first loop
  float m = -3.4e38f;
  for (unsigned c = threadIdx.x; hide(c < n); c += blockDim.x) m = fmaxf(m, in[c]);
  out[threadIdx.x] = m;
}
extern "C" __global__ void register_loop(const unsigned* in, unsigned* out) {  // while_data's kind
  unsigned x = in[threadIdx.x] + 1u, steps = 0;
  while (hide(x != 1u)) { x = (x & 1u) ? 3u * x + 1u : x / 2u; ++steps; }
  out[threadIdx.x] = steps;
}
CU
nvcc -arch=sm_90 -cubin -o "$out/probes.cubin" "$out/probes.cu"
cuobjdump -sass "$out/probes.cubin" > "$out/probes.sass"
# Per kernel: how many YIELD, BSSY, BSYNC, BREAK, WARPSYNC.
awk '/Function :/ {k=$3} /YIELD|BSSY|BSYNC|BREAK|WARPSYNC/ {for (i=1;i<=NF;i++) if ($i ~ /^(YIELD|BSSY|BSYNC|BREAK|WARPSYNC)$/) c[k" "$i]++}
     END {for (x in c) print x, c[x]}' "$out/probes.sass" | sort > "$out/probes-counts.txt"
cat "$out/probes-counts.txt"
# softmax_row as validate builds it: imported (NVRTC), emitted instrumented, compiled by nvcc.
build/tools/warpsim import tests/data/cuda/softmax_row.cu -o "$out/softmax_row.kir"
build/tools/warpsim emit-cuda "$out/softmax_row.kir" --mode instrumented > "$out/softmax_row.cu"
nvcc -arch=sm_90 -cubin -o "$out/softmax_row.cubin" "$out/softmax_row.cu"
cuobjdump -sass "$out/softmax_row.cubin" > "$out/softmax_row.sass"
grep -n "YIELD\|BSSY\|BSYNC\|BREAK\|WARPSYNC" "$out/softmax_row.sass" || true
# A softmax recording to replay (exit 6, a mismatch, is expected until the rule is known).
build/tools/warpsim validate tests/data/cuda/softmax_row.cu --grid 3 --block 128 --arg cols=300 \
  --buffer in=f32[900]:random:8 --buffer out=f32[900]:zeros --mode functional \
  --save "$out/softmax_row-g3b128.json" > "$out/softmax_row-g3b128.txt" 2>&1 || [ $? -eq 6 ]
rm -f "$out"/*.cubin
