# softmax_row's instrumented build, varied one ingredient at a time, and the YIELDs ptxas gives each
# (stop 18; results in ../yield-placement.txt, last section). Make s.cu first, from the repo root:
#   build/tools/warpsim import tests/data/cuda/softmax_row.cu -o s.kir
#   build/tools/warpsim emit-cuda s.kir --mode instrumented > s.cu
# then run this beside it: python3 softmax_variants.py (needs nvcc; no GPU).
import re, subprocess

OPS = 'docs/validation/h100/reconvergence/cubin_control_ops.py'  # relative to the repo root
src = open('s.cu').read()


def count(name, text):
    open(name + '.cu', 'w').write(text)
    subprocess.run(['nvcc', '-w', '-arch=sm_90', '-cubin', '-o', name + '.cubin', name + '.cu'], check=True)
    out = subprocess.run(['python3', OPS, name + '.cubin'], capture_output=True, text=True).stdout
    print(name, out.strip())


def without_records(blocks, text=src):
    for b in blocks:
        text = text.replace(f'ws_record(ws_t, {b}u);', '')
    return text


def rep(a, b):
    assert a in src, a
    return src.replace(a, b)


count('loops_unrecorded', without_records((3, 11, 18)))            # no record in the three loops
count('no_records', re.sub(r'ws_record\(ws_t, \d+u\);', '', src))   # no record at all but the exit
count('no_clock', rep('const long long now = clock64();', 'const long long now = 0;'))
count('no_smid', rep('*(unsigned*)(r + 16) = ws_smid();', ''))
count('no_activemask', rep('ws_record_lanes(t, block, __activemask());', 'ws_record_lanes(t, block, 0xffffffffu);'))
count('no_leader_test', rep('if (ws_laneid() != (unsigned)(__ffs(lanes) - 1)) return;', ''))
count('no_capacity_test', rep('if (slot >= t.capacity) return;', ''))
count('no_atomic', rep('const unsigned slot = atomicAdd((unsigned*)t.warp_base, 1u);', 'const unsigned slot = block;'))
count('first_loop_only', without_records((11, 18)))
count('no_syncthreads', src.replace('__syncthreads();', ''))
count('only_first_loop_recorded',
      re.sub(r'ws_record\(ws_t, (\d+)u\);', lambda m: m.group(0) if m.group(1) == '3' else '', src))
