# Stop 32: the shared-memory carve-out rules against what Nsight Compute reports for 30 launches.
# Each row: (launch, threads a block, static shared bytes, Nsight Compute's "Block Limit Registers",
# its "Shared Memory Configuration Size" in KiB), copied from the ncu CSVs saved under docs/validation/h100/
# (stop 21-32 ncu*.tgz). Run: python3 docs/validation/h100/stop32/carveouts.py. "model(B=min)" is the rule
# before stop 32 (no carve-out without shared memory, else the smallest that holds the blocks); the
# rule since is "32KiB if none, else up1" (11 of 13 and 13 of 17: 24 of 30).
# (name, threads, static, regs-limit, cfg KiB)
D=[("l2flush",512,0,8,16),("bfs",256,0,10,32),("thomas",128,0,12,32),("chase",128,0,16,32),("histo",256,0,16,32),
("regocc31",256,0,2,32),("bigint24",256,0,3,32),("regocc30",256,0,4,32),("bigint23",256,0,5,32),("spmv",256,0,6,32),("regocc29",256,0,8,32),("bigint25",256,0,1,8),
("luma",256,1024,16,32),("pcr8",64,1024,32,64),("pcr10",1024,16384,2,64),("dct",256,2304,8,64),("bs6144",128,24576,32,228),("ln512",512,256,4,16),
("agg",256,32,16,32),("ralgo",256,4096,10,100),("pcr9",256,4096,8,100),("rfull",512,4096,8,64),("rlast",256,4100,16,100),("bs7-34",256,4120,16,100),
("bs7-36",1024,4120,4,16),("bs7-35",512,4120,8,64),("mm1",256,5152,2,32),("mm4",256,8320,1,16),("bs512",128,2048,32,100),("l2n",256,0,8,32)]
C=[0,8,16,32,64,100,132,164,196,228]
def bs(s): return -(-(s+1024)//128)*128
def pick(need):
    for c in C:
        if c*1024>=need: return c
    return 228
rules={
 'model(B=min)': lambda t,s,r: pick(min(2048//t,32,r)*bs(s)) if s else 0,
 'B*bs*2': lambda t,s,r: pick(2*min(2048//t,32,r)*bs(s)),
 'Bw*bs*2': lambda t,s,r: pick(2*min(2048//t,32)*bs(s)),
 'up1': lambda t,s,r: C[min(C.index(pick(min(2048//t,32,r)*bs(s)))+1,9)],
 '32blk': lambda t,s,r: pick(32*bs(s)),
 'Bw*bs*4': lambda t,s,r: pick(4*min(2048//t,32)*bs(s)),
 'stop32: 32KiB if none, else up1': lambda t,s,r: 32 if s==0 else C[min(C.index(pick(min(2048//t,32,r)*bs(s)))+1,9)],
}
for n,f in rules.items():
    ok=[d[0] for d in D if f(d[1],d[2],d[3])==d[4]]
    print(n,len(ok),'/',len(D),' miss:',[ (d[0],f(d[1],d[2],d[3]),d[4]) for d in D if f(d[1],d[2],d[3])!=d[4]])
