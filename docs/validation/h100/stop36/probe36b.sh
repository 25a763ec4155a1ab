set -u
out=${OUT:?}
C=$PWD/.carry
export LD_LIBRARY_PATH=$C
W=$C/warpsim
$W timing-report $C/st3d1.json --threads 2 --gpu $C/h100-old.ini > $out/a.txt 2>&1
$W timing-report $C/st3d.json --threads 2 --gpu $C/h100-old.ini > $out/b.txt 2>&1
$W timing-report $C/st3d1.json --threads 1 --gpu $C/h100-old.ini > $out/c.txt 2>&1
for i in $(seq 1 15); do (timeout 60 sh -c 'while :; do :; done' &) ; done
$W timing-report $C/st3d1.json --threads 2 --gpu $C/h100-old.ini > $out/d.txt 2>&1
$W timing-report $C/st3d1.json --threads 8 --gpu $C/h100-old.ini > $out/e.txt 2>&1
pkill -f "while :" || true
grep -h "stencil3d" $out/*.txt | grep -v speedup | awk -F'|' '{print $4,$5,$7}'
