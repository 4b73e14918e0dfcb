#!/usr/bin/env bash
# Makes sure the native build finds what it needs beside cmake and g++: DLPack's header (Debian's
# libdlpack-dev), GoogleTest (libgtest-dev) and, for the fuzzer (PACKED4J_NEED_FUZZER=1: the Maven build asks
# for it only when it runs the tests), clang with its libFuzzer and sanitizer runtimes (clang-14 and
# libclang-rt-14-dev, Debian 12's own). Installs them
# with apt-get when they are missing and this runs as root (as on a fresh machine or in CI); otherwise says
# exactly what to install.
set -euo pipefail

missing=()
[ -f /usr/include/dlpack/dlpack.h ] || missing+=(libdlpack-dev)
if [ "${PACKED4J_NEED_GTEST:-1}" = 1 ]; then
  [ -f /usr/include/gtest/gtest.h ] || missing+=(libgtest-dev)
fi
if [ "${PACKED4J_NEED_FUZZER:-0}" = 1 ]; then
  command -v clang++-14 >/dev/null 2>&1 || missing+=(clang-14)
  compgen -G "/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null \
    || missing+=(libclang-rt-14-dev)
fi
for tool in cmake g++; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$([ "$tool" = g++ ] && echo g++ || echo cmake)")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "packed4j: installing native build dependencies: ${missing[*]}"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  exit 0
fi
if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && command -v apt-get >/dev/null 2>&1; then
  sudo -n env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  exit 0
fi
echo "packed4j: missing ${missing[*]}; install them (Debian/Ubuntu: apt-get install ${missing[*]}) and build again" >&2
exit 1
