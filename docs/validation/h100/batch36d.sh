#!/bin/bash
# Stop 36's fourth call (portable build of this commit in .carry/; an H200, the GH100 SM): what the
# arithmetic between a loaded index and the load it addresses costs (mb_addr.kir, compared only):
# one thread's chase of u32 indices over 64 L1-resident lines, the address formed as NVVM writes it
# (mul.wide + add: IMAD.WIDE in the SASS; cvt.u64.u32 + shl + add: LEA, LEA.HI.X; cvt.s64.s32 + shl
# + add: LEA, LEA.HI.X.SX32), against chase-l1 (the address itself loaded); twice each, and their SASS.
set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $out/device.txt 2>&1
date >> $out/device.txt
B=chase-l1,chase-idx-wide-l1,chase-idx-zext-l1,chase-idx-sext-l1
for k in 1 2; do
  timeout 200 $W calibrate --backend cuda --gpu-name h100 --benches $B --passes 1 \
    --save $out/raw36d-$k.json --out $out/h100-36d-$k.ini > $out/calibrate36d-$k.txt 2>&1
  echo "rc=$?" >> $out/calibrate36d-$k.txt
done
s=$out/sass36d; mkdir -p $s
$W emit-cuda kernels/microbench/mb_addr.kir > $s/mb_addr.cu 2> $s/err.txt
nvcc -cubin -arch=sm_90 -O3 -o $s/mb_addr.cubin $s/mb_addr.cu >> $s/err.txt 2>&1
for f in chase_idx_wide chase_idx_zext chase_idx_sext; do cuobjdump -sass -fun $f $s/mb_addr.cubin > $s/$f.sass 2>&1; done
rm -f $s/mb_addr.cubin
cd $out && tar czf sass36d.tgz sass36d && rm -rf sass36d
