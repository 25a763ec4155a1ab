#!/bin/bash
# cubins.sh WARPSIM NVC OUTDIR [SET]: NVRTC's cubin of the emitted CUDA of every kernel of SET (set27.txt
# by default; set28.txt at stop 28)
# (each line's -D options as #defines), as `warpsim run --backend cuda` compiles it: NVC is a small
# NVRTC driver with warpsim's options (cuda/nvrtc.cpp default_nvrtc_options, sm_90), NVC SOURCE
# CUBIN. The cubins go to the H100 call (batch27c.sh, batch28.sh), where cuobjdump disassembles them.
set -eu
W=$1; NVC=$2; out=$3; set=${4:-set27.txt}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
grep -v '^#' "$here/$set" | grep -v '^$' | cut -d'|' -f2 | while read -r f rest; do
  defs=$(echo "$rest" | grep -o -- '--nvcc-opt [^ ]*' | sed 's/--nvcc-opt //' | tr '\n' ' ')
  b=$(basename "$f" .cu)$(echo " $defs" | sed 's/ -D/-/g; s/=//g; s/ //g')
  [ -e "$out/$b.cubin" ] && continue
  { for d in $defs; do d=${d#-D}; echo "#define ${d%%=*} $([ "${d#*=}" = "$d" ] && echo 1 || echo "${d#*=}")"; done; cat "$f"; } > "/tmp/$b.cu"
  "$W" emit-cuda "/tmp/$b.cu" > "/tmp/$b-emitted.cu"
  "$NVC" "/tmp/$b-emitted.cu" "$out/$b.cubin"
done
