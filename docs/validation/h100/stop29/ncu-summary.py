#!/usr/bin/env python3
"""One line per kernel of stop 29's Nsight Compute call (batch29b.sh): python3 ncu-summary.py ncu.tgz"""
import csv, io, os, sys, tarfile

with tarfile.open(sys.argv[1]) as t:
    for m in sorted(t.getmembers(), key=lambda m: m.name):
        if not m.name.endswith(".csv"):
            continue
        text = t.extractfile(m).read().decode()
        rows = [r for r in csv.reader(io.StringIO(text)) if len(r) > 14 and r[0].isdigit()]
        v = {r[12]: r[14] for r in rows}
        print(f"{os.path.basename(m.name)[:-4]:16} time {v.get('gpu__time_duration.sum', '?'):>8} ns | DRAM read "
              f"{v.get('dram__bytes_read.sum', '?'):>12} B, write {v.get('dram__bytes_write.sum', '?'):>12} B | L2 sectors read "
              f"{v.get('lts__t_sectors_op_read.sum', '?'):>10}, write {v.get('lts__t_sectors_op_write.sum', '?'):>10}, atom "
              f"{v.get('lts__t_sectors_op_atom.sum', '?'):>10}, red {v.get('lts__t_sectors_op_red.sum', '?'):>4} | L2 hit "
              f"{v.get('lts__t_sector_hit_rate.pct', '?')}%")
