#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan+UBSan, coverage) in build-fuzz/ and runs them side by side for
# SECONDS (default 25), seeded with every kernel in kernels/ and the dictionary fuzz/kir.dict.
#   tools/fuzz.sh [SECONDS] [TARGET...]      TARGET: fuzz_isa, fuzz_sim (default both)
# WARPSIM_FUZZ_BUILD_ONLY=1 builds and stops; WARPSIM_FUZZ_CMAKE_ARGS adds configure arguments
# (tools/test.sh builds at -O1 without debug information).
# The corpus grows in build-fuzz/corpus/TARGET (kept between runs); findings land in
# build-fuzz/findings/ and fail the run. For hours: tools/fuzz.sh 14400 (docs/testing.md).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-25}"
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(fuzz_isa fuzz_sim)
build="${WARPSIM_FUZZ_BUILD_DIR:-$here/build-fuzz}"
if ! command -v clang++ >/dev/null; then
  echo "warpsim: clang++ not found; the fuzz targets need clang and libclang-rt (tools/setup.sh installs them)" >&2
  exit 1
fi
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DWARPSIM_FUZZ=ON -DWARPSIM_TESTS=OFF ${WARPSIM_FUZZ_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target "${targets[@]}"
[ "${WARPSIM_FUZZ_BUILD_ONLY:-0}" = 1 ] && exit 0
mkdir -p "$build/findings"
for t in "${targets[@]}"; do
  mkdir -p "$build/corpus/$t"
  # Seeds: every .kir under kernels/; the simulator target reads 4 launch bytes before the kernel
  # text, so it gets each kernel behind three different launch prefixes.
  seeds="$build/seeds/$t"
  rm -rf "$seeds" && mkdir -p "$seeds"
  i=0
  while IFS= read -r f; do
    i=$((i + 1))
    if [ "$t" = fuzz_sim ]; then
      for prefix in '\x1f\x01\x07\x00' '\x40\x05\x03\x09' '\x05\x02\x00\x21'; do
        { printf "$prefix"; cat "$f"; } >"$seeds/$i-$(printf %s "$prefix" | tr -d '\\x').kir"
      done
    else
      cp "$f" "$seeds/$i.kir"
    fi
  done < <(find "$here/kernels" -name '*.kir' | sort)
done
# The targets fuzz side by side, one a processor (CI's machine has 2), each for SECONDS; their
# statistics are printed in order once all are done, and the first failure's log.
pids=()
for t in "${targets[@]}"; do
  echo "fuzzing $t for ${seconds}s"
  "$build/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -dict="$here/fuzz/kir.dict" -artifact_prefix="$build/findings/$t-" -print_final_stats=1 \
    "$build/corpus/$t" "$build/seeds/$t" 2>"$build/$t.log" &
  pids+=($!)
done
status=0
for k in "${!targets[@]}"; do
  t=${targets[$k]}
  if ! wait "${pids[$k]}"; then
    tail -50 "$build/$t.log" >&2
    status=1
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|cov:" "$build/$t.log" | tail -3
done
exit "$status"
