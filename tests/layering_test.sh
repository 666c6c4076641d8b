#!/usr/bin/env bash
# Dependencies point one way: valuestore <- opset/kernels <- ... and valuestore <- ir <- opset <-
# export. A module includes only its own headers and those of the modules it may depend on
# (checked on the sources); the kernels library links only the value store (checked on its
# CMake declaration): a kernel sees tensors and attributes, never a graph.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
declare -A allowed=(
  [valuestore]="valuestore"
  [opset/kernels]="valuestore opset/kernels"
  [ir]="valuestore ir"
  [opset]="valuestore opset/kernels ir opset"
  [export]="valuestore opset/kernels ir opset export"
)
failures=0
module_of() {  # the module of a path below the root
  case $1 in
    opset/kernels/*) echo opset/kernels ;;
    *) echo "${1%%/*}" ;;
  esac
}
for module in valuestore opset/kernels ir opset export; do
  while IFS= read -r file; do
    rel=${file#$root/}
    [[ $(module_of "$rel") == "$module" ]] || continue
    while read -r header; do
      if [[ $header == graphgc.h ]]; then target=export
      else target=$(module_of "$header"); fi
      if [[ ! -e $root/$header && $header != graphgc.h ]]; then
        echo "unknown header graphgc/$header in $rel"; failures=$((failures + 1))
      elif [[ " ${allowed[$module]} " != *" $target "* ]]; then
        echo "$rel ($module) includes graphgc/$header ($target)"; failures=$((failures + 1))
      fi
    done < <(grep -oE '#include [<"]graphgc/[a-z_0-9/]+\.h[>"]' "$file" | sed -E 's/.*graphgc\/(.*)[">]/\1/')
  done < <(find "$root/$module" -name '*.h' -o -name '*.cc')
done
# The kernels library's graphgc dependencies: the value store only.
deps=$(tr '\n' ' ' < "$root/opset/kernels/CMakeLists.txt" | grep -oE 'graphgc_module\(kernels[^)]*\)' |
       grep -oE 'graphgc_[a-z_]+' | grep -v '^graphgc_module$' | sort -u | tr '\n' ' ')
if [[ $deps != "graphgc_valuestore " ]]; then
  echo "opset/kernels links graphgc targets '$deps'; only graphgc_valuestore is allowed"
  failures=$((failures + 1))
fi
echo "layering: $failures violation(s)"
((failures == 0))
