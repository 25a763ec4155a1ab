#!/usr/bin/env bash
# Build warpsim and run the test suite (docs/testing.md). Works on a fresh Debian machine as root:
# installs what is missing, configures, builds incrementally, runs.
#   1. build-asan/  the whole suite under AddressSanitizer + UndefinedBehaviorSanitizer (-O1): what
#                   .ci/run gets, inside CI's 15 minutes on 2 cores
# WARPSIM_FULL=1 adds, after step 1:
#   2. build/       the whole suite in the RelWithDebInfo build the tools ship as
#   3. build-tsan/  the tests that run blocks on several host threads, under ThreadSanitizer (-O1)
#   4. build-fuzz/  each libFuzzer target for WARPSIM_FUZZ_SECONDS (default 25) seconds (clang)
# WARPSIM_QUICK=1 runs step 2 only. Arguments go to the first ctest. Exit status: the first failure's.
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

# Sanitizer builds: -O1 without debug information, which halves their compile time; a sanitizer
# report fails the test that triggered it.
sanitized() {  # sanitized FOLDER OPTION
  cmake -S "$here" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1" -D"$2"=ON >/dev/null
}
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="halt_on_error=1"
asan="$here/build-asan"
sanitized "$asan" WARPSIM_SANITIZE
step "build (ASan+UBSan)" cmake --build "$asan" -j "$jobs"
# Under the sanitizers the generated-kernel comparison checks 2,000 kernels (3,000 elsewhere) to
# keep CI inside its 15 minutes; set WARPSIM_FUZZ_KERNELS for more.
WARPSIM_FUZZ_KERNELS=${WARPSIM_FUZZ_KERNELS:-2000} \
  step "test (ASan+UBSan)" ctest --test-dir "$asan" --output-on-failure -j "$jobs" "$@"
[ "${WARPSIM_FULL:-0}" = 1 ] || exit 0

plain

tsan="$here/build-tsan"
sanitized "$tsan" WARPSIM_TSAN
step "build (TSan)" cmake --build "$tsan" -j "$jobs" --target test_sim
step "test (TSan)" ctest --test-dir "$tsan" --output-on-failure -j "$jobs" -R "host thread"

step "fuzz" "$here/tools/fuzz.sh" "${WARPSIM_FUZZ_SECONDS:-25}"
