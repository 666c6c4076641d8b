#!/usr/bin/env bash
# Dependencies point one way: valuestore <- ir <- opset <- export. A module may include only its
# own headers and those of the modules below it (checked on the sources, not the build).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
modules=(valuestore ir opset export)
declare -A level
for i in "${!modules[@]}"; do
  for header in "$root/${modules[$i]}"/*.h; do level[$(basename "$header")]=$i; done
done
failures=0
for i in "${!modules[@]}"; do
  for file in "$root/${modules[$i]}"/*.h "$root/${modules[$i]}"/*.cc; do
    [[ -e $file ]] || continue
    while read -r header; do
      target=${level[$header]:-}
      if [[ -z $target ]]; then
        echo "unknown header graphgc/$header in ${file#$root/}"; failures=$((failures + 1))
      elif ((target > i)); then
        echo "${file#$root/} (${modules[$i]}) includes graphgc/$header (${modules[$target]})"
        failures=$((failures + 1))
      fi
    done < <(grep -oE '#include "graphgc/[a-z_0-9]+\.h"' "$file" | sed -E 's/.*graphgc\/(.*)"/\1/')
  done
done
echo "layering: $failures violation(s)"
((failures == 0))
