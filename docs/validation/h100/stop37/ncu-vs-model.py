# Stop 37: batch37.sh's Nsight Compute figures (H200) beside the model's (`warpsim run ARGS --mode timing
# --threads 2`, stop 36's preset, model37/). In docs/validation/h100/stop37/ after `tar xzf ncu37.tgz`
# and `tar xzf model37.tgz`: python3 ncu-vs-model.py
import csv,glob,re,os,io
D='ncu37'
def raw(name):
    lines=open(f'{D}/{name}-raw.csv').read().splitlines()
    i=[k for k,l in enumerate(lines) if l.startswith('"ID"')][0]
    r=list(csv.reader(lines[i:]))
    return dict(zip(r[0],r[2])),dict(zip(r[0],r[1]))
def det(name):
    lines=open(f'{D}/{name}.csv').read().splitlines()
    i=[k for k,l in enumerate(lines) if l.startswith('"ID"')][0]
    out={}
    for row in csv.DictReader(lines[i:]):
        out[row['Metric Name']]=(row['Metric Value'],row['Metric Unit'])
    return out
def model(name):
    s=open(f'model37/{name}.txt').read()
    t=re.search(r'cycles = ([\d.]+) us',s); g=re.search(r'L1 hit ([\d.]+)%, L2 hit ([\d.]+)%, DRAM (\d+) B',s)
    req=re.search(r'global memory: (\d+) requests \(ld (\d+), st (\d+), atom (\d+)\), (\d+) sectors',s)
    wc=re.search(r'warp cycles (\d+): (.*)',s)
    sh=re.search(r'shared.*',s)
    return t.group(1), g.groups() if g else None, req.groups() if req else None, wc.group(2) if wc else '', s
for name in [l.split('|')[0] for l in open(f'{D}/index.txt')]:
    v,u=raw(name); d=det(name)
    st={k.replace('smsp__average_warps_issue_stalled_','').replace('_per_issue_active.ratio',''):float(x[0].replace(',','')) for k,x in d.items() if k and k.startswith('smsp__average_warps_issue_stalled') and x[0] not in ('','n/a')}
    top=sorted(st.items(),key=lambda x:-x[1])[:5]
    mt,mg,mr,mw,_=model(name)
    f=lambda k: v.get(k,'?')
    print(f"== {name}: GPU {float(f('gpu__time_duration.sum').replace(',',''))/1000:.1f} us ({u.get('gpu__time_duration.sum')}) model {mt} us")
    print(f"  GPU  L1 hit {f('l1tex__t_sector_hit_rate.pct')}  L2 hit {f('lts__t_sector_hit_rate.pct')}  DRAM rd {f('dram__bytes_read.sum')}{u.get('dram__bytes_read.sum')} wr {f('dram__bytes_write.sum')}{u.get('dram__bytes_write.sum')}  ld req {f('l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum')} sectors {f('l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum')} wavefronts {f('l1tex__data_pipe_lsu_wavefronts.sum')} bankconf {f('l1tex__data_bank_conflicts_pipe_lsu.sum')} inst {f('smsp__inst_executed.sum')} cyc {f('sm__cycles_elapsed.avg')}")
    print(f"  model L1/L2 hit, DRAM {mg}  req {mr}")
    print(f"  GPU stalls (per issue): {', '.join(f'{k} {x:.2f}' for k,x in top)}")
    print(f"  model warp cycles: {mw}")
    for k in ['Achieved Occupancy','Theoretical Occupancy','Registers Per Thread','L1/TEX Hit Rate','Mem Busy','Max Bandwidth','Memory Throughput','Issue Slots Busy','Dynamic Shared Memory Per Block','Static Shared Memory Per Block','Driver Shared Memory Per Block','Shared Memory Configuration Size']:
        if k in d: print(f"    {k}: {d[k][0]} {d[k][1]}",end=';')
    print()
