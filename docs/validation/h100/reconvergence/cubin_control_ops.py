# Control instructions of an sm_90 cubin without cuobjdump: per .text.<kernel> section, the opcodes
# in the low 12 bits of each 128-bit instruction (checked against followup/sass/*.sass: spin_wait gives
# the same offsets), 0x941 BSYNC, 0x942 BREAK, 0x945 BSSY, 0x946 YIELD, 0x947 BRA, 0x948 WARPSYNC,
# 0x94d EXIT, 0xb1d BAR. Usage: python3 cubin_control_ops.py FILE.cubin [list]
# With 'list': one line per control instruction, with its guard, barrier and target (BRA's
# offset: bits 16-23 and, sign-extended, bits 34 up, in words; BSSY's: bits 32-63, in bytes; checked
# against followup/sass/two_exit_loop.sass). Without: per kernel, how many of each.
import struct,sys
NAMES={0x941:'BSYNC',0x942:'BREAK',0x945:'BSSY',0x946:'YIELD',0x947:'BRA',0x948:'WARPSYNC',0x94d:'EXIT',0xb1d:'BAR'}
d=open(sys.argv[1],'rb').read()
listing=len(sys.argv)>2
shoff=struct.unpack_from('<Q',d,0x28)[0]; shentsize,shnum,shstrndx=struct.unpack_from('<HHH',d,0x3a)
secs=[struct.unpack_from('<IIQQQQIIQQ',d,shoff+i*shentsize) for i in range(shnum)]
so=secs[shstrndx][4]
def name(o): e=d.index(b'\0',so+o); return d[so+o:e].decode()
for s in secs:
  n=name(s[0])
  if not n.startswith('.text.'): continue
  off,size=s[4],s[5]; counts={}
  if listing: print('==', n[6:])
  for i in range(0,size,16):
    lo=struct.unpack_from('<Q',d,off+i)[0]
    op=lo&0xfff; pred=(lo>>12)&0xf
    if op not in NAMES: continue
    p='' if pred==7 else ('@!P%d '%(pred&7) if pred&8 else '@P%d '%pred)
    t=''
    if op==0x947:
      hi=lo>>34
      if hi & (1<<29): hi-= (1<<30)
      t=hex(i+16+4*(((lo>>16)&0xff)|(hi<<8)))
    if op==0x945:
      t='B%d -> %s'%((lo>>16)&0xf, hex(i+16+((lo>>32)&0xffffffff)))
    if op in (0x941,0x942): t='B%d'%((lo>>16)&0xf)
    if listing: print('%04x %s%s %s'%(i,p,NAMES[op],t))
    counts[NAMES[op]]=counts.get(NAMES[op],0)+1
  if not listing: print(n[6:], counts)
