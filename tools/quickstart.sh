#!/usr/bin/env bash
# The main job: build warpsim (installing missing Debian packages first), then simulate the
# textbook reduction kernels and print their divergence reports side by side.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/tools/setup.sh"
build="${WARPSIM_BUILD_DIR:-$here/build}"
jobs="$(nproc 2>/dev/null || echo 2)"
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${WARPSIM_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$jobs" --target warpsim >/dev/null
warpsim="$build/tools/warpsim"

echo "== The reduction family on the simulator (warp size 32) =="
"$warpsim" compare reduce-fig5-13 reduce-fig5-15 reduce-ece408-naive reduce-ece408-improved reduce-coarsened reduce-full
echo
echo "== Fig 5.13 against Fig 5.15, one 512-thread block: where the divergence is =="
"$warpsim" run reduce-fig5-13 --warps all | sed -n '1,/^  warps/p' | head -n 40
echo
"$warpsim" run reduce-fig5-15 --warps all | sed -n '1,/^  warps/p' | head -n 40
echo
echo "More: $warpsim list | $warpsim run SCENARIO --help | docs/textbook.md"
