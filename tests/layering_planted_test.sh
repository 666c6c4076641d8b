#!/usr/bin/env bash
# The layering test must fail on a violation: each case plants one in a copy of the library's
# sources and expects layering_test.sh to exit non-zero naming the planted file; the unplanted
# copy must pass.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fresh_copy() {
  rm -rf "$work/tree"
  mkdir -p "$work/tree"
  cp -r "$root/valuestore" "$root/ir" "$root/opset" "$root/export" "$work/tree/"
}
failures=0
expect_violation() {  # DESCRIPTION FILE LINE: append LINE to FILE (created if new) in a fresh copy
  local description=$1 file=$2 line=$3
  fresh_copy
  printf '%s\n' "$line" >>"$work/tree/$file"
  local out
  if out=$(bash "$here/layering_test.sh" "$work/tree" 2>&1); then
    echo "NOT CAUGHT: $description"; failures=$((failures + 1))
  elif ! grep -q "$file" <<<"$out"; then
    echo "caught, but the message does not name $file: $description"; echo "$out"
    failures=$((failures + 1))
  else
    echo "caught: $description"
  fi
}

fresh_copy
bash "$here/layering_test.sh" "$work/tree" >/dev/null || { echo "the clean copy fails"; exit 1; }
expect_violation "a kernel includes a graph" opset/kernels/kernel.cc '#include "graphgc/ir/graph.h"'
expect_violation "a kernel includes the opset" opset/kernels/math/cast.cc \
  '#include "graphgc/opset/values/kernel_registry.h"'
expect_violation "ir includes the opset" ir/graph.cc '#include "graphgc/opset/build/node.h"'
expect_violation "the value store includes ir" valuestore/tensor.cc '#include "graphgc/ir/var.h"'
expect_violation "opset includes export" opset/build/node.cc '#include "graphgc/export/onnx/to_onnx.h"'
expect_violation "proto includes build" opset/proto/tensor_proto.cc \
  '#include "graphgc/opset/build/op_builder.h"'
expect_violation "the ONNX boundary includes folding" export/onnx/to_onnx.cc \
  '#include "graphgc/export/fold/fold.h"'
expect_violation "a file laid flat in opset/" opset/stray.cc '#include "graphgc/ir/var.h"'
expect_violation "a file laid flat in export/" export/stray.h '// nothing'
expect_violation "an unknown header" ir/var.cc '#include "graphgc/ir/no_such_header.h"'
echo "layering_planted: $failures case(s) not caught"
((failures == 0))
