#!/usr/bin/env bash
# Installs the built library into a scratch prefix, then configures, builds and runs a separate
# project that uses it through find_package(graphgc CONFIG REQUIRED).
set -euo pipefail
build_dir=$1
compiler=${2:-c++}  # the compiler the library was built with: sanitizer runtimes must match
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build_dir" --prefix "$scratch/prefix" >/dev/null
cmake -S "$source_dir/consumer" -B "$scratch/build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$scratch/prefix" \
  -DCMAKE_CXX_COMPILER="$compiler" >/dev/null
cmake --build "$scratch/build" >/dev/null
"$scratch/build/consumer"
