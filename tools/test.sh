#!/usr/bin/env bash
# Build warpsim and run the test suite (docs/testing.md). Works on a fresh Debian machine as root:
# installs what is missing, configures, builds incrementally, runs. What .ci/run gets, inside CI's
# 15 minutes on 2 cores:
#   1. build-asan/  the whole suite under AddressSanitizer + UndefinedBehaviorSanitizer (-O1, the
#                   simulator library -O2; tools/ and the tests at -O0 in unity batches). While its tests run, steps 2 and 3 are
#                   built beside them at the lowest priority, on the processor time the tests leave.
#   2. build-tsan/  the tests that run blocks on several host threads, under ThreadSanitizer (-O0)
#   3. build-fuzz/  each libFuzzer target for WARPSIM_FUZZ_SECONDS (default 25) seconds (clang,
#                   ASan+UBSan, seeded with the repo's kernels: tools/fuzz.sh)
# WARPSIM_FULL=1 adds, after those, the whole suite in the RelWithDebInfo build the tools ship as
# (build/). WARPSIM_QUICK=1 runs that step only. Arguments go to the ASan step's ctest (and to the
# plain one). Exit status: the first failure's.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/tools/setup.sh"
build="${WARPSIM_BUILD_DIR:-$here/build}"
jobs="$(nproc 2>/dev/null || echo 2)"

step() {  # step NAME COMMAND...: runs it, then prints its wall and processor time
  local name="$1" start=$SECONDS
  shift
  echo "== $name" >&2
  local TIMEFORMAT="== $name: %R s wall, %U s user, %S s system"
  time "$@"
  echo "== $name done after $((SECONDS - start)) s" >&2
}

plain() {  # the shipped build and the whole suite
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${WARPSIM_CMAKE_ARGS:-} >/dev/null
  step "build" cmake --build "$build" -j "$jobs"
  step "test" ctest --test-dir "$build" --output-on-failure -j "$jobs" "$@"
}
if [ "${WARPSIM_QUICK:-0}" = 1 ]; then
  plain "$@"
  exit 0
fi

# Sanitizer builds: no debug information, which halves their compile time; a sanitizer report
# fails the test that triggered it.
sanitized() {  # sanitized FOLDER OPTIMISATION OPTION [SIMULATOR OPTIMISATION]
  cmake -S "$here" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="$2" -D"$3"=ON \
    -DWARPSIM_UNITY_GLUE=ON -DWARPSIM_SIM_OPT="${4:-}" >/dev/null
}
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="halt_on_error=1"
asan="$here/build-asan" tsan="$here/build-tsan"
# The fuzz build as tools/fuzz.sh configures it, at -O1 without debug information.
export WARPSIM_FUZZ_CMAKE_ARGS="${WARPSIM_FUZZ_CMAKE_ARGS:--DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O1}"

# The simulator library at -O2: the tests spend most of their processor time in it (the H100
# replays, the generated kernels), and -O2 runs them faster than its longer compile costs.
sanitized "$asan" -O1 WARPSIM_SANITIZE -O2
step "build (ASan+UBSan)" cmake --build "$asan" -j "$jobs"

# Steps 2 and 3 build at nice 19 while step 1's tests run: the tests leave part of the processors
# idle (process start-up, the last long tests), and CFS gives a nice-19 job almost nothing while
# the tests want it, so the tests' own times hardly move.
side_log="$here/build-side.log"
(
  sanitized "$tsan" -O0 WARPSIM_TSAN
  nice -n 19 cmake --build "$tsan" -j "$jobs" --target test_sim
  WARPSIM_FUZZ_BUILD_ONLY=1 nice -n 19 "$here/tools/fuzz.sh"
) >"$side_log" 2>&1 &
side=$!
# Under the sanitizers the generated-kernel comparison checks 600 kernels (3,000 elsewhere; 2,000
# until stop 24, when CI ran 18 minutes, 1,500 until stop 25, when it ran 15 min 4 s, 1,200 until
# stop 26, when it ran 15 min 54 s, 1,000 until stop 27, when its steps took 15 min 15 s, 800 until
# stop 29, when they took 15 min 46 s and stop 29's tests added about 40 s); set WARPSIM_FUZZ_KERNELS
# for more.
status=0
WARPSIM_FUZZ_KERNELS=${WARPSIM_FUZZ_KERNELS:-600} \
  step "test (ASan+UBSan)" ctest --test-dir "$asan" --output-on-failure -j "$jobs" "$@" || status=$?
step "build (TSan, fuzz targets; started beside the tests)" wait "$side" || {
  echo "warpsim: the TSan or fuzz build failed:" >&2
  tail -50 "$side_log" >&2
  exit 1
}
[ "$status" = 0 ] || exit "$status"

step "test (TSan)" ctest --test-dir "$tsan" --output-on-failure -j "$jobs" -R "host thread"
step "fuzz" "$here/tools/fuzz.sh" "${WARPSIM_FUZZ_SECONDS:-25}"

[ "${WARPSIM_FULL:-0}" = 1 ] || exit 0
plain "$@"
