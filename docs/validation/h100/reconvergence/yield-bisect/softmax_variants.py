import re,subprocess,sys
src=open('s.cu').read()
def count(name, text):
    open(name+'.cu','w').write(text)
    subprocess.run(['nvcc','-w','-arch=sm_90','-cubin','-o',name+'.cubin',name+'.cu'],check=True)
    out=subprocess.run(['python3','/work/main/docs/validation/h100/reconvergence/cubin_control_ops.py',name+'.cubin'],capture_output=True,text=True).stdout
    print(name, out.strip())
# 1: no ws_record in blocks 3, 11, 18
t=src
for b in (3,11,18): t=t.replace(f'ws_record(ws_t, {b}u);','')
count('v1',t)
# 2: no ws_record at all except exit
t=re.sub(r'ws_record\(ws_t, \d+u\);','',src); count('v2',t)
# 3: only clock removed from recorder
t=src.replace('const long long now = clock64();','const long long now = 0;'); count('v3',t)
# 4: smid removed
t=src.replace('*(unsigned*)(r + 16) = ws_smid();',''); count('v4',t)
# 5: activemask replaced by constant
t=src.replace('ws_record_lanes(t, block, __activemask());','ws_record_lanes(t, block, 0xffffffffu);'); count('v5',t)
import re,subprocess
src=open('s.cu').read()
def count(name, text):
    open(name+'.cu','w').write(text)
    subprocess.run(['nvcc','-w','-arch=sm_90','-cubin','-o',name+'.cubin',name+'.cu'],check=True)
    out=subprocess.run(['python3','/work/main/docs/validation/h100/reconvergence/cubin_control_ops.py',name+'.cubin'],capture_output=True,text=True).stdout
    print(name, out.strip())
def rep(a,b,t=None):
    t=src if t is None else t
    assert a in t, a
    return t.replace(a,b)
count('w1',rep('if (ws_laneid() != (unsigned)(__ffs(lanes) - 1)) return;',''))
count('w2',rep('if (slot >= t.capacity) return;',''))
count('w3',rep('const unsigned slot = atomicAdd((unsigned*)t.warp_base, 1u);','const unsigned slot = block;'))
count('w4',rep('const unsigned slot = atomicAdd((unsigned*)t.warp_base, 1u);','const unsigned slot = atomicAdd((unsigned*)t.warp_base, 1u);asm volatile("");'))
# only one loop (block 3) recorded
t=src
for b in (11,18): t=t.replace(f'ws_record(ws_t, {b}u);','')
count('w5',t)
import re,subprocess
src=open('s.cu').read()
def count(name, text):
    open(name+'.cu','w').write(text)
    subprocess.run(['nvcc','-w','-arch=sm_90','-cubin','-o',name+'.cubin',name+'.cu'],check=True)
    out=subprocess.run(['python3','/work/main/docs/validation/h100/reconvergence/cubin_control_ops.py',name+'.cubin'],capture_output=True,text=True).stdout
    print(name, out.strip())
count('x1',src.replace('__syncthreads();','',))
# keep only first loop's record, no syncthreads
t=src
for b in (11,18): t=t.replace(f'ws_record(ws_t, {b}u);','')
count('x2',t.replace('__syncthreads();',''))
# record only in loop block 3, none elsewhere
t=re.sub(r'ws_record\(ws_t, (\d+)u\);',lambda m: m.group(0) if m.group(1)=='3' else '',src)
count('x3',t)
