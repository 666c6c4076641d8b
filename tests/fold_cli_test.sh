#!/bin/sh
# graphgc-fold on bad input: exit status 1, a message naming the file and the problem, and no
# output file (or temporary) left behind; bad arguments exit 2; a good run writes OUT and --stats.
# Usage: fold_cli_test.sh GRAPHGC_FOLD PYTHON
#   PYTHON has the onnx package, whose onnx.proto encodes and decodes the text models here
#   (Debian's libonnx-dev, which has it in /usr/include, is not installed).
set -u
fold="$1"
proto_root=$(dirname "$("$2" -c 'import onnx; print(onnx.__path__[0])')")
work=$(mktemp -d)
trap 'rm -rf "$work" "$work/../outside.bin"' EXIT
failures=0

# model.txt -> model.onnx with protoc, from ONNX's own schema file.
encode() {
  (cd "$proto_root" && protoc --encode=onnx.ModelProto onnx/onnx.proto) < "$1" > "$2"
}

good_model() {  # y = x + (c * c): the product folds
  cat <<'MODEL'
ir_version: 8
opset_import { domain: "" version: $OPSET }
graph {
  name: "g"
  node { input: "c" input: "c" output: "cc" op_type: "Mul" }
  node { input: "x" input: "cc" output: "y" op_type: "Add" }
  initializer { name: "c" data_type: 1 dims: 2 float_data: 1 float_data: 2 }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}
MODEL
}

good_model | sed 's/\$OPSET/17/' > "$work/good.txt" && encode "$work/good.txt" "$work/good.onnx"
good_model | sed 's/\$OPSET/99/' > "$work/new.txt" && encode "$work/new.txt" "$work/new.onnx"
# c's elements in a side file: missing, and outside the model's folder.
external_model() {
  good_model | sed 's/\$OPSET/17/' | sed "s|initializer { name: \"c\" data_type: 1 dims: 2 float_data: 1 float_data: 2 }|initializer { name: \"c\" data_type: 1 dims: 2 data_location: EXTERNAL external_data { key: \"location\" value: \"$1\" } }|"
}
external_model "missing.bin" > "$work/missing.txt" && encode "$work/missing.txt" "$work/missing.onnx"
external_model "../outside.bin" > "$work/escape.txt" && encode "$work/escape.txt" "$work/escape.onnx"
printf '\000\000\200\077\000\000\000\100' > "$work/../outside.bin" 2>/dev/null || true
head -c 40 "$work/good.onnx" > "$work/truncated.onnx"
printf 'this is not an onnx model at all\n' > "$work/text.onnx"
: > "$work/empty.onnx"

# expect_failure NAME STATUS PATTERN ARGS...: the run exits STATUS, says PATTERN, leaves no output.
expect_failure() {
  name="$1" status="$2" pattern="$3"
  shift 3
  rm -f "$work/out.onnx"
  "$fold" "$@" 2> "$work/stderr"
  got=$?
  if [ "$got" -ne "$status" ]; then
    echo "FAIL $name: exit $got, expected $status"; cat "$work/stderr"; failures=$((failures + 1))
  elif ! grep -q -- "$pattern" "$work/stderr"; then
    echo "FAIL $name: message lacks '$pattern':"; cat "$work/stderr"; failures=$((failures + 1))
  elif ls "$work" | grep -q '^out\.onnx'; then
    echo "FAIL $name: left $(ls "$work" | grep '^out\.onnx')"; failures=$((failures + 1))
  else
    echo "ok   $name: $(head -n 1 "$work/stderr")"
  fi
}

expect_failure "missing file" 1 "$work/absent.onnx" "$work/absent.onnx" "$work/out.onnx"
expect_failure "not a model" 1 "text.onnx" "$work/text.onnx" "$work/out.onnx"
expect_failure "truncated" 1 "truncated.onnx" "$work/truncated.onnx" "$work/out.onnx"
expect_failure "empty file" 1 "empty.onnx" "$work/empty.onnx" "$work/out.onnx"
expect_failure "opset too new" 1 "uses ai.onnx opset 99; graphgc reads ai.onnx opsets 1 to 24" \
  "$work/new.onnx" "$work/out.onnx"
# --help is asked for, not a mistake: the usage on stdout, nothing on stderr, exit 0.
if "$fold" --help > "$work/help" 2> "$work/stderr" && grep -q "^usage: graphgc-fold" "$work/help" &&
   [ ! -s "$work/stderr" ]; then
  echo "ok   --help: usage on stdout, exit 0"
else
  echo "FAIL --help: exit or streams wrong"; cat "$work/help" "$work/stderr"; failures=$((failures + 1))
fi
expect_failure "missing external data" 1 "missing.bin" "$work/missing.onnx" "$work/out.onnx"
expect_failure "external data outside" 1 "outside.bin" "$work/escape.onnx" "$work/out.onnx"
expect_failure "output folder missing" 1 "cannot" "$work/good.onnx" "$work/no/such/out.onnx"
expect_failure "unknown option" 2 "--frobnicate" "$work/good.onnx" "$work/out.onnx" --frobnicate
expect_failure "bad byte count" 2 "max-fold-bytes" "$work/good.onnx" "$work/out.onnx" --max-fold-bytes=-3
expect_failure "one path" 2 "one input and one output" "$work/good.onnx"
expect_failure "bad opset" 2 "opset from 1 to 24" "$work/good.onnx" "$work/out.onnx" --opset=25

if "$fold" "$work/good.onnx" "$work/out.onnx" --quiet --stats="$work/stats.json" 2> "$work/stderr"; then
  if [ ! -s "$work/out.onnx" ] || ls "$work" | grep -q 'tmp-'; then
    echo "FAIL good run: no output, or a temporary left"; failures=$((failures + 1))
  elif ! grep -q '"nodes_after": 1' "$work/stats.json" || ! grep -q '"peak_rss_bytes": [1-9]' "$work/stats.json" ||
       ! awk -F': ' '/_seconds/ { gsub(",", "", $2); if ($1 ~ /total/) total = $2; else sum += $2 }
                     END { exit !(total > 0 && sum <= total) }' "$work/stats.json"; then
    echo "FAIL good run: stats"; cat "$work/stats.json"; failures=$((failures + 1))
  else
    echo "ok   good run: 2 -> 1 nodes, stats written"
  fi
else
  echo "FAIL good run:"; cat "$work/stderr"; failures=$((failures + 1))
fi

# The cleanups' switches are taken, and their counts are in the stats.
if "$fold" "$work/good.onnx" "$work/out.onnx" --quiet --no-cast-removal --no-cse \
     --no-initializer-merging --stats="$work/stats.json" 2> "$work/stderr" &&
   grep -q '"noop_casts_removed": 0' "$work/stats.json" &&
   grep -q '"common_subexpressions_removed": 0' "$work/stats.json" &&
   grep -q '"initializers_merged": 0' "$work/stats.json"; then
  echo "ok   cleanups switched off"
else
  echo "FAIL cleanups switched off:"; cat "$work/stderr" "$work/stats.json"; failures=$((failures + 1))
fi

# --external-data=0: every tensor goes to OUT.data, and the tool checks the result from its file.
rm -f "$work/out.onnx" "$work/out.onnx.data"
if "$fold" "$work/good.onnx" "$work/out.onnx" --quiet --no-fuse --external-data=0 2> "$work/stderr" &&
   [ -s "$work/out.onnx.data" ] && grep -q "out.onnx.data" "$work/out.onnx"; then
  echo "ok   external data written: $(wc -c < "$work/out.onnx.data") bytes in out.onnx.data"
else
  echo "FAIL external data:"; cat "$work/stderr"; failures=$((failures + 1))
fi

# A model's own opset is kept unless --opset asks for another.
good_model | sed 's/\$OPSET/13/' > "$work/old.txt" && encode "$work/old.txt" "$work/old.onnx"
opset_of() {
  (cd "$proto_root" && protoc --decode=onnx.ModelProto onnx/onnx.proto) < "$1" |
    grep -A2 opset_import | sed -n 's/.*version: \([0-9]*\).*/\1/p'
}
if "$fold" "$work/old.onnx" "$work/kept.onnx" --quiet 2> "$work/stderr" &&
   "$fold" "$work/old.onnx" "$work/converted.onnx" --quiet --opset=17 2>> "$work/stderr" &&
   [ "$(opset_of "$work/kept.onnx")" = 13 ] && [ "$(opset_of "$work/converted.onnx")" = 17 ]; then
  echo "ok   opset: kept at 13 by default, 17 with --opset=17"
else
  echo "FAIL opset: kept $(opset_of "$work/kept.onnx"), converted $(opset_of "$work/converted.onnx")"
  cat "$work/stderr"; failures=$((failures + 1))
fi

# A model written as PyTorch 2.9 writes them (opset 20, IR 10: Gelu, ReduceMean with axes as an
# input, Split with num_outputs, LayerNormalization, a symbolic batch): folded, it passes ONNX's
# full check and ONNX Runtime gives it the original's outputs (tests/python/pytorch_style_model.py).
pytorch_model="$(dirname "$0")/python/pytorch_style_model.py"
if "$2" "$pytorch_model" save "$work/pytorch.onnx" &&
   "$fold" "$work/pytorch.onnx" "$work/pytorch_folded.onnx" --quiet 2> "$work/stderr" &&
   "$2" "$pytorch_model" compare "$work/pytorch.onnx" "$work/pytorch_folded.onnx" 2>> "$work/stderr" &&
   [ "$(opset_of "$work/pytorch_folded.onnx")" = 20 ]; then
  echo "ok   opset-20 model: folded, checker-valid, ONNX Runtime gives the original's outputs"
else
  echo "FAIL opset-20 model:"; cat "$work/stderr"; failures=$((failures + 1))
fi

# The progress bar: on a terminal (script(1) gives one) for a model of more than 10 000 nodes;
# never with --quiet or without a terminal.
{
  echo 'ir_version: 8 opset_import { domain: "" version: 17 } graph { name: "chain"'
  i=0 prev=x
  while [ $i -lt 10001 ]; do echo "node { input: \"$prev\" output: \"t$i\" op_type: \"Neg\" }"; prev=t$i; i=$((i + 1)); done
  echo 'input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }'
  echo "output { name: \"$prev\" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } } }"
} > "$work/chain.txt"
encode "$work/chain.txt" "$work/chain.onnx"
script -qc "'$fold' '$work/chain.onnx' '$work/chain_out.onnx'" /dev/null > "$work/tty.txt" 2>&1
script -qc "'$fold' '$work/chain.onnx' '$work/chain_out.onnx' --quiet" /dev/null > "$work/quiet.txt" 2>&1
"$fold" "$work/chain.onnx" "$work/chain_out.onnx" 2> "$work/notty.txt"
if grep -q "10001/10001" "$work/tty.txt" && ! grep -q "/10001" "$work/quiet.txt" &&
   ! grep -q "/10001" "$work/notty.txt"; then
  echo "ok   progress bar: on a terminal only, not with --quiet"
else
  echo "FAIL progress bar"; cat "$work/tty.txt" "$work/quiet.txt" "$work/notty.txt"
  failures=$((failures + 1))
fi

[ "$failures" -eq 0 ] && echo "all graphgc-fold CLI checks passed"
exit "$failures"
