set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
touch /tmp/stamp; sleep 1
R="tests/data/cuda/heldout28/stencil3d.cu --nvcc-opt -DMARCH=1 --grid 16,64 --block 32,8 --arg nx=512 --arg ny=512 --arg nz=64 --arg c0=0.4 --arg c1=0.1 --buffer in=f32[65536]:random --buffer out=f32[65536]:zeros --mode functional"
for k in 1 2; do echo "plain $k: $($W run $R 2>&1 | grep -o 'registers per thread [0-9]*')"; done
echo "disable: $(CUDA_CACHE_DISABLE=1 $W run $R 2>&1 | grep -o 'registers per thread [0-9]*')"
echo "env: HOME=$HOME CUDA_CACHE_PATH=${CUDA_CACHE_PATH:-} XDG=${XDG_CACHE_HOME:-}"
env | grep -i -E "cuda|nv" | head
find / -xdev -newer /tmp/stamp -type f 2>/dev/null | grep -v -E "^/proc|^/sys|$out" | head -20
ls -la $HOME/.nv $HOME/.cache 2>&1 | head
