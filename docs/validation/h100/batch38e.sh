#!/bin/bash
# Stop 38's fifth device call (an H200): where the first set's reduce-coarsened spends a warp's
# life at coarse 1, 2 and 4 (stop38/rcprobe38.cu: the emitted CUDA with clock64() at the start, at
# the end of the serial loads and at the end), and its SASS (cuobjdump of an nvcc cubin made with
# --fmad=false, as the backend's NVRTC options have it).
set -u
out=${OUT:?}
src=docs/validation/h100/stop38/rcprobe38.cu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $out/rcprobe38.txt 2>&1
nvcc -arch=sm_90 -O3 --fmad=false -o /tmp/rcprobe $src >> $out/rcprobe38.txt 2>&1
for k in 1 2; do for c in 1 2 4; do /tmp/rcprobe $c >> $out/rcprobe38.txt 2>&1; done; done
nvcc -arch=sm_90 -O3 --fmad=false -cubin -o /tmp/rc.cubin $src && cuobjdump -sass /tmp/rc.cubin > $out/rcprobe38.sass 2>&1
