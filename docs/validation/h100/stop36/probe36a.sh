set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
R="tests/data/cuda/heldout28/stencil3d.cu --nvcc-opt -DMARCH=1 --grid 16,64 --block 32,8 --arg nx=512 --arg ny=512 --arg nz=64 --arg c0=0.4 --arg c1=0.1 --buffer in=f32[16777216]:random --buffer out=f32[16777216]:zeros"
$W run $R --gpu $C/h100-old.ini --threads 2 --l2-start flushed --format json > $out/st.json 2> $out/st.err
$W import tests/data/cuda/heldout28/stencil3d.cu --nvcc-opt -DMARCH=1 > $out/st.kir 2>&1
python3 - > /dev/null 2>&1 <<'P'
P
nvcc --version > $out/env.txt 2>&1; ldd $W >> $out/env.txt 2>&1; grep -m1 flags /proc/cpuinfo >> $out/env.txt; grep -m1 "model name" /proc/cpuinfo >> $out/env.txt; ls -la /usr/local/cuda/lib64/libnvrtc* >> $out/env.txt 2>&1
