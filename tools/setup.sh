#!/usr/bin/env bash
# Installs the Debian packages warpsim needs, only those missing; apt-get update only when needed.
set -euo pipefail
# clang and libclang-rt-dev: the libFuzzer targets (tools/fuzz.sh).
packages=(cmake ninja-build g++ libboost-program-options-dev catch2 libspdlog-dev libfmt-dev nlohmann-json3-dev
          clang libclang-rt-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "warpsim: missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})" >&2
    exit 1
  fi
  echo "warpsim: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
