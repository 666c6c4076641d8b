#!/usr/bin/env bash
# The C++ sources are formatted with the repository's .clang-format (clang-format 14). Generated
# files ("do not edit" in their first lines) are the generator's to lay out and are left out.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
formatter=${CLANG_FORMAT:-clang-format-14}
command -v "$formatter" >/dev/null || { echo "format: $formatter not found (tools/bootstrap installs it)"; exit 1; }
cd "$root"
unformatted=0
while IFS= read -r file; do
  head -n 3 "$file" | grep -q "do not edit" && continue
  if ! "$formatter" --style=file --dry-run -Werror "$file" >/dev/null 2>&1; then
    echo "not formatted: $file (run: $formatter -i --style=file $file)"
    unformatted=$((unformatted + 1))
  fi
done < <(git ls-files '*.h' '*.cc' 2>/dev/null || find . -name '*.h' -o -name '*.cc')
echo "format: $unformatted file(s) not formatted"
((unformatted == 0))
