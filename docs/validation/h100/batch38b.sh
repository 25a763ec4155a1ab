#!/bin/bash
# Stop 38's second device call (an H200: the H100's GH100 SM and L2 design, HBM3e memory).
# The L2's halves (docs/validation/timing.md, "Stop 38"): stop38/probe38.cu, built here with nvcc,
# gathers 2^23 f32 at hashed words of 32 MiB and 64 MiB from the SMs a %smid rule picks: all of
# them, the lower or upper 66, the even or odd, and %smid's bit 1..5 clear. Nsight Compute reads
# each launch's DRAM bytes and L2 hit rate: cold (--cache-control all) and warm (none, the third
# launch). If each half of the SMs keeps its own copies, the SMs of one half read less from DRAM
# than the same number of loads from both halves.
set -u
out=${OUT:?}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv > $out/device.txt 2>&1
nvcc -arch=sm_90 -O2 -o /tmp/probe38 docs/validation/h100/stop38/probe38.cu >> $out/device.txt 2>&1
/tmp/probe38 23 0 1000 31 0 >> $out/device.txt 2>&1
m="dram__bytes_read.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum"
res=$out/probe38.txt
for bits in 23 24; do
  for cfg in "0 1000 31 0" "0 66 31 0" "66 1000 31 0" "0 1000 0 0" "0 1000 0 1" "0 1000 1 0" "0 1000 2 0" "0 1000 3 0" "0 1000 4 0" "0 1000 5 0"; do
    echo "== bits $bits cfg $cfg" >> $res
    /tmp/probe38 $bits $cfg >> $res 2>&1
    timeout 60 ncu --csv --page raw --cache-control all --clock-control none --metrics "$m" -k gather_sel --launch-count 1 \
      /tmp/probe38 $bits $cfg 2>&1 | grep -E '^"[0-9]' | sed 's/^/cold /' >> $res
    timeout 60 ncu --csv --page raw --cache-control none --clock-control none --metrics "$m" -k gather_sel --launch-skip 2 --launch-count 1 \
      /tmp/probe38 $bits $cfg 2>&1 | grep -E '^"[0-9]' | sed 's/^/warm /' >> $res
  done
done
echo "done at ${SECONDS}s" >> $res
