# Stop 37: a busiest-slice bound with a line's 2^g-line granule XOR-hashed over S slices, fitted to the 14
# atom-lines-u32-* points of stops 32-34 (turn t, floor 1.2 cycles a request). Needs python3-numpy.
# Prints the 15 best (mean error, g, a, b, S, t, figures). About 30 s.
import sys, itertools
import numpy as np
B=[("c32",1,32,6.03),("c64",1,64,3.85),("c128",1,128,2.35),("c256",1,256,1.21),("c1024",1,1024,1.20),
   ("s256",2,64,4.01),("s512",4,128,4.74),("s1k",8,256,2.39),("s2k",16,512,2.79),("s4k",32,1024,1.50),
   ("s8k",64,2048,2.38),("s16k",128,4096,3.39),("s32k",256,8192,2.39),("s64k",512,16384,2.79)]
base=int(sys.argv[1]) if len(sys.argv)>1 else 0
lines=[(np.arange(fp//st,dtype=np.int64)*st+base) for _,st,fp,_ in B]
meas=np.array([m for *_,m in B])
res=[]
for g in range(0,4):
  for a in range(1,16):
    for b in range(a+1,17):
      hs=[((l>>g)^(l>>(g+a))^(l>>(g+b))) for l in lines]
      for S in range(16,129):
        ml=np.array([np.bincount(h%S).max()/(len(h)/32) for h in hs])
        best=None
        for F in (1.2,):
          for t in np.arange(1.2,2.2,0.02):
            p=np.maximum(t*ml,F); e=np.mean(np.abs(p/meas-1))
            if best is None or e<best[0]: best=(e,t,F,p)
        res.append((round(best[0],4),g,a,b,S,round(best[1],2),[round(x,2) for x in best[3]]))
res.sort(key=lambda r:r[0])
for r in res[:15]: print(r)
