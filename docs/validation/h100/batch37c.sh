#!/bin/bash
# Stop 37's third device call: batch37b.sh's SASS listings again (its tarball was one file past what
# a call returns): cuobjdump -sass of the NVRTC cubins in .carry/cubins37/ (timing-set/nvc.cpp with
# warpsim's options; each held-out kernel from the CUDA warpsim emits and from its source).
set -u
out=${OUT:?}
C=$PWD/.carry
q=$out/sass37b; mkdir -p $q
for c in $C/cubins37/*.cubin; do
  cuobjdump -sass $c > $q/$(basename $c .cubin).sass 2>&1
done
cd $out && tar czf sass37b.tgz sass37b && rm -rf sass37b
