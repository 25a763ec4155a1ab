# Before/after bench on the GPU host's CPU, alternating the two binaries (issue 7 speed).
cd .carry-bench && export LD_LIBRARY_PATH=.
lscpu | grep -E "Model name|^CPU\(s\)|MHz" > $OUT/host.txt
for i in 1 2 3 4; do
  ./warpsim-before bench --threads 1,2 --mode timing --format json | tr -d '\n' >> $OUT/before.jsonl; echo >> $OUT/before.jsonl
  ./warpsim-after bench --threads 1,2 --mode timing --format json | tr -d '\n' >> $OUT/after.jsonl; echo >> $OUT/after.jsonl
done
for i in 1 2; do
  ./warpsim-before bench --threads 1 --mode functional --format json | tr -d '\n' >> $OUT/functional-before.jsonl; echo >> $OUT/functional-before.jsonl
  ./warpsim-after bench --threads 1 --mode functional --format json | tr -d '\n' >> $OUT/functional-after.jsonl; echo >> $OUT/functional-after.jsonl
done
