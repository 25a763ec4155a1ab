# Stop 34: does a busiest-slice bound under a two-fold XOR hash mod S reproduce atom-lines-u32-*
# (h100/stop32, stop33)? Prints the 20 best (mean error, g, S, a, b, turn, figures). About a minute.
import sys
B=[("c32",1,32,6.03),("c128",1,128,2.35),("c1024",1,1024,1.20),("s256",2,64,4.01),
   ("s1k",8,256,2.39),("s4k",32,1024,1.50),("s16k",128,4096,3.39),("s64k",512,16384,2.79)]
def maxloads(h,S):
    out=[]
    for n,st,fp,m in B:
        cnt={}
        for i in range(fp//st):
            s=h(i*st)%S; cnt[s]=cnt.get(s,0)+1
        out.append(max(cnt.values())/(fp//st/32))
    return out
res=[]
for g in range(0,4):
 for S in list(range(24,129)):
  for a in range(1,20):
    for b in range(a,21):
      h=lambda l,a=a,b=b,g=g:((l>>g)^(l>>(g+a))^(l>>(g+b)))
      ml=maxloads(h,S)
      # best t by least relative error (grid)
      best=None
      for t in [1.2+0.02*k for k in range(45)]:
        e=sum(abs(t*x/b3[3]-1) for x,b3 in zip(ml,B))/len(B)
        if best is None or e<best[0]: best=(e,t)
      res.append((round(best[0],4),g,S,a,b,round(best[1],2),[round(best[1]*x,2) for x in ml]))
res.sort()
for r in res[:20]: print(r)
