# Stop 37: each run of batch37d.sh timed with its own build (--gpu-build source) and with the CUDA
# warpsim emits (--gpu-build emitted) on an H200, and stop 36's predictions (the H100 preset) beside
# them. Run in docs/validation/h100/stop37/ after `tar xzf builds37.tgz` and with stop 36's reports
# (docs/validation/h100/stop36/reports36c.tgz) extracted to reports36c/: python3 builds37.py
import json,glob,re
rows={}
for line in open('builds37/index.txt'):
    n,b,fam,args,rc=line.rstrip('\n').split('|')
    try:
        j=json.load(open(f'builds37/{n}-{b}.json'))
        l=j['launches'][0]
        st=l.get('stats',l)
        def find(x,k):
            if isinstance(x,dict):
                if k in x: return x[k]
                for v in x.values():
                    r=find(v,k)
                    if r is not None: return r
            if isinstance(x,list):
                for v in x:
                    r=find(v,k)
                    if r is not None: return r
        rows.setdefault(n,{'fam':fam,'args':args})[b]=(find(j,'kernel_ms'),find(j,'compiled_registers'),find(j,'timed_build'))
    except Exception as e:
        rows.setdefault(n,{'fam':fam,'args':args})[b]=None
import math
rat=[]
for n,r in sorted(rows.items()):
    s,e=r.get('source'),r.get('emitted')
    if not s or not e or not s[0] or not e[0]: print(n,r['fam'],'missing',s,e); continue
    q=s[0]/e[0]; rat.append(q); dd=' '.join(re.findall(r'-D\S+',r['args']))
    print(f"{n} {r['fam'][:18]:18} src {s[0]*1e3:9.2f} us ({s[1]:3} r, {s[2]}) emitted {e[0]*1e3:9.2f} us ({e[1]:3} r, {e[2]})  src/emitted {q:5.2f}  {r['args'].split()[0].split('/')[-1]} {dd}")
g=math.exp(sum(math.log(x) for x in rat)/len(rat))
print(len(rat),'geomean src/emitted',round(g,3),'min',round(min(rat),2),'max',round(max(rat),2), 'beyond 5%:',sum(1 for x in rat if abs(x-1)>0.05),'beyond 10%:',sum(1 for x in rat if abs(x-1)>0.10))

# model predictions (stop 36 replay, H100 preset) by args
pred={}
for f in glob.glob('reports36c/*.md'):
    for line in open(f):
        c=line.split('|')
        if len(c)>7 and '%' in c[6]:
            try: pred[c[2].strip().strip('`')]=float(c[3])
            except: pass
es=[];ee=[]
print()
for n,r in sorted(rows.items()):
    s,e=r.get('source'),r.get('emitted')
    p=pred.get(r['args'])
    if p is None or not s or not e: continue
    a=abs(p/(s[0]*1e3)-1); b=abs(p/(e[0]*1e3)-1); es.append(a); ee.append(b)
    if abs(s[0]/e[0]-1)>0.05: print(f"{n} {r['fam'][:16]:16} model {p:8.2f}  vs source {p/(s[0]*1e3)-1:+.0%}  vs emitted {p/(e[0]*1e3)-1:+.0%}")
print(len(es),'runs with a prediction: mean |error| vs H200 source build',round(100*sum(es)/len(es),1),'% vs H200 emitted build',round(100*sum(ee)/len(ee),1),'%')
