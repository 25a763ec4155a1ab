# Control instructions of an sm_90 cubin without cuobjdump: per .text.<kernel> section, the opcodes
# in the low 12 bits of each 128-bit instruction (checked against followup/sass/*.sass: spin_wait gives
# the same offsets), 0x941 BSYNC, 0x942 BREAK, 0x945 BSSY, 0x946 YIELD, 0x947 BRA, 0x948 WARPSYNC,
# 0x94d EXIT. Usage: python3 cubin_control_ops.py FILE.cubin [x]   (x: list the offsets too)
import struct,sys
from collections import Counter
NAMES={0x941:'BSYNC',0x942:'BREAK',0x945:'BSSY',0x946:'YIELD',0x947:'BRA',0x948:'WARPSYNC',0x94d:'EXIT'}
d=open(sys.argv[1],'rb').read()
shoff=struct.unpack_from('<Q',d,0x28)[0]; shentsize,shnum,shstrndx=struct.unpack_from('<HHH',d,0x3a)
secs=[struct.unpack_from('<IIQQQQIIQQ',d,shoff+i*shentsize) for i in range(shnum)]
strtab=secs[shstrndx]; so=strtab[4]
def name(o): e=d.index(b'\0',so+o); return d[so+o:e].decode()
for s in secs:
  n=name(s[0])
  if not n.startswith('.text.'): continue
  off,size=s[4],s[5]; c=Counter(); seq=[]
  for i in range(0,size,16):
    lo=struct.unpack_from('<Q',d,off+i)[0]
    op=lo&0xfff
    if op in NAMES:
      c[NAMES[op]]+=1
      if NAMES[op]!='BRA' and NAMES[op]!='EXIT': seq.append('%04x:%s'%(i,NAMES[op]))
  print(n[6:], dict(c), ' '.join(seq) if len(sys.argv)>2 else '')
