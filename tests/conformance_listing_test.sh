#!/bin/sh
# graphgc-conformance keeps its known-differences list true: a case that passes while a SKIP line
# lists it fails the run, while an accurate list (a listed failure that fails) passes it.
# Usage: conformance_listing_test.sh GRAPHGC_CONFORMANCE CASES_DIR   (ONNX 1.12's node suite)
set -u
tool="$1"
cases="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

echo "SKIP test_abs listed although it passes" > "$work/stale.txt"
if "$tool" --known-differences "$work/stale.txt" "$cases/test_abs" > "$work/stale.log" 2>&1; then
  echo "FAIL: a passing case listed as SKIP did not fail the run"; failures=$((failures + 1))
fi
grep -q "listed as skipped but passes" "$work/stale.log" ||
  { echo "FAIL: no 'listed as skipped but passes' line"; cat "$work/stale.log"; failures=$((failures + 1)); }
grep -q "1 passing cases still listed as skipped" "$work/stale.log" ||
  { echo "FAIL: no count of stale listings"; failures=$((failures + 1)); }

echo "# no entries" > "$work/empty.txt"
if ! "$tool" --known-differences "$work/empty.txt" "$cases/test_abs" > "$work/good.log" 2>&1; then
  echo "FAIL: a passing case with an empty list failed the run"; cat "$work/good.log"
  failures=$((failures + 1))
fi

if [ "$failures" -eq 0 ]; then echo "conformance_listing_test: passed"; fi
exit "$failures"
