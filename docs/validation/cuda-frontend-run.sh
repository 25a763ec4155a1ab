#!/bin/sh
# The CUDA front end on the H100: every .cu kernel of tests/data/cuda/ validated against the GPU
# (outputs, warps, every warp's active mask per basic block). Run from the repository root after
# building; results go to docs/validation/cuda-frontend.md.
set -x
W=build/tools/warpsim
$W validate tests/data/cuda/saxpy.cu --grid 4 --block 256 --arg n=1000 --arg a=2 --buffer x=f32[1000]:random --buffer y=f32[1000]:random
$W validate tests/data/cuda/vecadd.cu --grid 16 --block 64 --arg n=1003 --buffer a=f32[1003]:random --buffer b=f32[1003]:random --buffer c=f32[1003]:zeros
$W validate tests/data/cuda/divergent_loop.cu --grid 2 --block 64 --buffer out=u32[128]:zeros
$W validate tests/data/cuda/reduce_fig5_13.cu --grid 1 --block 256 --buffer input=f32[512]:random --buffer output=f32[1]:zeros
$W validate tests/data/cuda/reduce_fig5_15.cu --grid 1 --block 256 --buffer input=f32[512]:random --buffer output=f32[1]:zeros
$W validate tests/data/cuda/warp_sum.cu --grid 4 --block 128 --arg n=500 --buffer in=f32[500]:random --buffer total=f32[1]:zeros
# Textbook kernels (issue 10, proof): the CUDA C versions of the .kir scenarios.
$W validate tests/data/cuda/grey.cu --grid 3,2 --block 16,16 --arg width=37 --arg height=21 --buffer Pin=u8[2331]:random:256 --buffer Pout=u8[777]:zeros
$W validate tests/data/cuda/reduce_ece408_naive.cu --grid 2 --block 256 --arg n=1000 --buffer input=f32[1000]:random --buffer out=f32[2]:zeros
$W validate tests/data/cuda/reduce_ece408_improved.cu --grid 2 --block 256 --arg n=1000 --buffer input=f32[1000]:random --buffer out=f32[2]:zeros
$W validate tests/data/cuda/report_clocks.cu --grid 4 --block 14,8 --buffer out=u32[448]:zeros
$W validate tests/data/cuda/matmul_tiled.cu --grid 3,3 --block 16,16 --arg rows=37 --arg inner=29 --arg cols=41 --buffer M=f32[1073]:random --buffer N=f32[1189]:random --buffer P=f32[1517]:zeros
$W validate tests/data/cuda/matmul_coarsened.cu --grid 1,3 --block 16,16 --arg rows=37 --arg inner=29 --arg cols=41 --buffer M=f32[1073]:random --buffer N=f32[1189]:random --buffer P=f32[1517]:zeros
$W validate tests/data/cuda/matmul_naive.cu --grid 3,3 --block 16,16 --arg rows=37 --arg inner=29 --arg cols=41 --buffer M=f32[1073]:random --buffer N=f32[1189]:random --buffer P=f32[1517]:zeros
$W validate tests/data/cuda/reduce_coarsened.cu --grid 2 --block 256 --arg n=4010 --buffer input=f32[4010]:random --buffer out=f32[2]:zeros
# threadFenceReduction: the block that takes the last ticket (and runs the final sum) is whichever
# finishes last on the GPU, the last in the simulator (docs/validation/h100.md, "The one
# difference"). With one block the masks cannot depend on that order:
$W validate tests/data/cuda/reduce_last_block.cu --grid 1 --block 256 --arg n=200 --buffer input=f32[200]:random --buffer partial=f32[1]:zeros --buffer out=f32[1]:zeros --buffer counter=u32[1]:zeros
# with 4 blocks the outputs and the masks of the blocks that only publish their sum must agree; the
# warps of the final-sum block differ whenever the GPU's last block is not block 3 (expected).
$W validate tests/data/cuda/reduce_last_block.cu --grid 4 --block 256 --arg n=1000 --buffer input=f32[1000]:random --buffer partial=f32[4]:zeros --buffer out=f32[1]:zeros --buffer counter=u32[1]:zeros
# Everyday kernels.
$W validate tests/data/cuda/histogram.cu --grid 4 --block 128 --arg n=5000 --buffer data=u8[5000]:random:256 --buffer histo=u32[256]:zeros
$W validate tests/data/cuda/transpose.cu --grid 3,2 --block 32,32 --arg rows=45 --arg cols=70 --buffer in=f32[3150]:random --buffer out=f32[3150]:zeros
$W validate tests/data/cuda/stencil1d.cu --grid 8 --block 128 --arg n=1000 --buffer in=s32[1000]:random:100 --buffer out=s32[1000]:zeros
$W validate tests/data/cuda/scan_kogge_stone.cu --grid 3 --block 256 --arg n=700 --buffer x=f32[700]:random --buffer y=f32[700]:zeros
$W validate tests/data/cuda/scan_brent_kung.cu --grid 2 --block 256 --arg n=700 --buffer x=f32[700]:random --buffer y=f32[700]:zeros
$W validate tests/data/cuda/daxpy.cu --grid 4 --block 256 --arg n=1000 --arg a=0.1 --buffer x=f64[1024]:random --buffer y=f64[1024]:random
$W validate tests/data/cuda/bitonic_step.cu --grid 2 --block 128 --arg j=4 --arg k=8 --buffer keys=u32[256]:random:1000
$W validate tests/data/cuda/spmv_csr.cu --grid 4 --block 32 --arg rows=100 --buffer row_ptr=u32[101]:iota --buffer col_idx=u32[100]:random:64 --buffer values=f32[100]:random --buffer x=f32[64]:random --buffer y=f32[100]:zeros
$W validate tests/data/cuda/softmax_row.cu --grid 3 --block 128 --arg cols=300 --buffer in=f32[900]:random:8 --buffer out=f32[900]:zeros
# BFS: each frontier vertex 2i has the one neighbour 2i+1, so every atomicCAS has one claimant and
# the masks are deterministic; next[] holds the claimed vertices in the order of the atomicAdds,
# which the GPU may order differently within a warp (an output difference there alone is expected).
$W validate tests/data/cuda/bfs_frontier.cu --grid 2 --block 32 --arg frontier_size=50 --arg current=4 --buffer row_ptr=u32[201]:iota --buffer col_idx=u32[200]:iota:1 --buffer level=u32[201]:const:4294967295 --buffer frontier=u32[50]:iota:0:2 --buffer next=u32[200]:zeros --buffer next_size=u32[1]:zeros
# The IR's vector accesses, local memory, packing movs and membermasks (stop 19).
$W validate tests/data/cuda/vecadd4.cu --grid 3 --block 96 --arg n4=250 --buffer a=f32[1000]:random --buffer b=f32[1000]:random --buffer c=f32[1008]:const:-1
$W validate tests/data/cuda/local_sort.cu --grid 2 --block 50 --arg k=7 --buffer in=s32[700]:random:1000 --buffer out=s32[700]:zeros
$W validate tests/data/cuda/warp_masked.cu --grid 2 --block 96 --arg active=20 --buffer in=f64[192]:random --buffer sums=f64[6]:zeros --buffer positives=s32[6]:zeros
