#!/usr/bin/env bash
# Dependencies point one way: valuestore <- ir <- opset <- export (and valuestore <- opset/kernels).
# Every source file of the library lives in a room, a folder whose name says what it holds (the
# README's "Where things live"), and includes only headers of the rooms that room may see:
#   - the kernels see tensors and attributes only: the value store and themselves (checked on
#     the sources and on the kernels library's CMake declaration);
#   - opset/proto is the opset module's leaf; nothing below opset/generated includes it back;
#   - export/onnx (the ONNX boundary) never includes folding, which is built on it.
# A file outside every room (a new file laid flat in opset/ or export/) fails too.
# Usage: layering_test.sh [ROOT]   (default: this repository; tests plant violations in a copy)
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
opset_rooms="opset/build opset/inference opset/values opset/proto"
declare -A allowed=(
  [valuestore]="valuestore"
  [opset/kernels]="valuestore opset/kernels"
  [ir]="valuestore ir"
  [opset/proto]="valuestore ir opset/proto"
  [opset/inference]="valuestore ir opset/kernels $opset_rooms"
  [opset/values]="valuestore ir opset/kernels $opset_rooms"
  [opset/build]="valuestore ir opset/kernels $opset_rooms"
  [opset/generated]="valuestore ir opset/kernels $opset_rooms opset/generated"
  [export/onnx]="valuestore ir opset/kernels $opset_rooms opset/generated export/onnx"
  [export/fold]="valuestore ir opset/kernels $opset_rooms opset/generated export/onnx export/fold"
  [export/python]="valuestore ir opset/kernels $opset_rooms opset/generated export/onnx export/fold export/python export/umbrella"
  [export/umbrella]="valuestore ir opset/kernels $opset_rooms opset/generated export/onnx export/fold"
)
failures=0
room_of() {  # the room of a path below the root, or "" for a file outside every room
  case $1 in
    valuestore/*.h | valuestore/*.cc) echo valuestore ;;
    ir/*.h | ir/*.cc) echo ir ;;
    opset/kernels/*) echo opset/kernels ;;
    opset/*/*) echo "${1%/*}" | cut -d/ -f1-2 ;;
    export/graphgc.h) echo export/umbrella ;;
    export/*/*) echo "${1%/*}" | cut -d/ -f1-2 ;;
    *) echo "" ;;
  esac
}
while IFS= read -r file; do
  rel=${file#"$root"/}
  room=$(room_of "$rel")
  if [[ -z $room || -z ${allowed[$room]:-} ]]; then
    echo "$rel is outside every room (see the README's \"Where things live\")"
    failures=$((failures + 1))
    continue
  fi
  while read -r header; do
    if [[ $header == graphgc.h ]]; then target=export/umbrella; path=export/graphgc.h
    else target=$(room_of "$header"); path=$header; fi
    if [[ ! -e $root/$path ]]; then
      echo "unknown header graphgc/$header in $rel"; failures=$((failures + 1))
    elif [[ " ${allowed[$room]} " != *" $target "* ]]; then
      echo "$rel ($room) includes graphgc/$header ($target)"; failures=$((failures + 1))
    fi
  done < <(grep -oE '#include [<"]graphgc/[a-z_0-9/]+\.h[>"]' "$file" | sed -E 's/.*graphgc\/(.*)[">]/\1/')
done < <(find "$root/valuestore" "$root/ir" "$root/opset" "$root/export" \( -name '*.h' -o -name '*.cc' \))
# The kernels library's graphgc dependencies: the value store only.
deps=$(tr '\n' ' ' < "$root/opset/kernels/CMakeLists.txt" | grep -oE 'graphgc_module\(kernels[^)]*\)' |
       grep -oE 'graphgc_[a-z_]+' | grep -v '^graphgc_module$' | sort -u | tr '\n' ' ')
if [[ $deps != "graphgc_valuestore " ]]; then
  echo "opset/kernels links graphgc targets '$deps'; only graphgc_valuestore is allowed"
  failures=$((failures + 1))
fi
echo "layering: $failures violation(s)"
((failures == 0))
