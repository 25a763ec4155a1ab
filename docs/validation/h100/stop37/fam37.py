# Stop 37: for each family of failruns.txt (and set29's, from builds37), the model's speedup-ratio
# errors and rank reversals against the H100 (the sets' figures, in stop 36's reports), the H200's
# emitted builds and its source builds (batch37d/e.sh). In h100/stop37/ after `tar xzf builds37.tgz`,
# `tar xzf builds37e.tgz` and stop36/reports36c.tgz extracted: python3 fam37.py
import json,glob,re,sys,itertools
base=sys.argv[1] if len(sys.argv)>1 else '.'
def load(d):
    rows={}
    for line in open(f'{base}/{d}/index.txt'):
        n,b,fam,args,rc=line.rstrip('\n').split('|')
        try:
            j=json.load(open(f'{base}/{d}/{n}-{b}.json'))
            ms=j['launches'][0].get('kernel_ms') or j['launches'][0]['stats']['kernel_ms']
        except Exception:
            ms=None
        rows.setdefault((fam,args),{})[b]=ms
    return rows
rows=load('builds37e'); rows.update({k:v for k,v in load('builds37').items() if k[0]!='ncu15'})
pred={}; famof={}
for f in glob.glob(f'{base}/reports36c/*.md'):
    for line in open(f):
        c=line.split('|')
        if len(c)>7 and '%' in c[6]:
            try: pred[c[2].strip().strip('`')]=(float(c[3]),float(c[4]))
            except: pass
fams={}
for (fam,args),v in rows.items():
    if args in pred and v.get('source') and v.get('emitted'): fams.setdefault(fam,[]).append((args,v['source']*1e3,v['emitted']*1e3,*pred[args]))
def verdict(runs,col):
    # the report's ratios: speedup of the first run over each other
    first=runs[0]; worst=0
    for r in runs[1:]:
        m=first[col]/r[col]; p=first[3]/r[3]; worst=max(worst,abs(p/m-1))
    rev=sum(1 for a,b in itertools.combinations(runs,2) if (a[col]-b[col])*(a[3]-b[3])<0)
    return worst,rev
tot={'h100':[0,0],'src':[0,0],'em':[0,0]}
for fam,runs in sorted(fams.items()):
    if len(runs)<2: continue
    out=[]
    for name,col in (('h100',4),('em',2),('src',1)):
        w,rv=verdict(runs,col); ok=w<=0.10
        tot[name][0]+=ok; tot[name][1]+=rv
        out.append(f"{name} worst {w:4.0%} rev {rv}")
    ratios=' '.join(f"{r[1]/r[2]:.2f}" for r in runs)
    print(f"{fam[:20]:20} n={len(runs)} src/em {ratios:30} | "+' | '.join(out))
n=sum(1 for r in fams.values() if len(r)>=2)
print(n,'families; within 10% (every ratio) and reversals:',{k:(v[0],v[1]) for k,v in tot.items()})
