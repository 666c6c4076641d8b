#!/bin/sh
# graphgc-bench's whole suite at small sizes, and the recompute and big-model parts: every row
# must run and be right (the bench exits non-zero otherwise), --json must be one valid JSON
# document, and --plot must write every chart.
# One run at both sizes gives the JSON and the charts (--plot reports on stderr, so stdout stays one
# document); a second at the smaller size only prints the tables.
#   bench_smoke_test.sh GRAPHGC_BENCH WORK_DIR
set -eu
bench=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
"$bench" --n=10,100 --json --plot "$work/charts" > "$work/suite.json"
python3 -m json.tool "$work/suite.json" > /dev/null
"$bench" --n=10 > "$work/suite.txt"
grep -q . "$work/suite.txt" || { echo "bench_smoke_test: the tables are empty" >&2; exit 1; }
for chart in boundary memory_chain memory_fanout memory_mlp memory_shapes time_chain time_fanout \
             time_mlp time_shapes; do
  if [ ! -s "$work/charts/$chart.png" ]; then
    echo "bench_smoke_test: --plot wrote no $chart.png" >&2
    exit 1
  fi
done
# recompute is not in the suite: named, at sizes where the 64 MiB row evicts (8 layers hold 84 MiB).
"$bench" --scenario recompute --n=4,8 --json --plot "$work/recompute" > "$work/recompute.json"
python3 - "$work/recompute.json" <<'CHECK'
import json, sys
rows = json.load(open(sys.argv[1]))["recompute"]
assert len(rows) == 8, rows
assert all(row["correct"] for row in rows), rows
assert any(row["values_recomputed"] > 0 for row in rows), "no row computed a value again"
CHECK
if [ ! -s "$work/recompute/recompute.png" ]; then
  echo "bench_smoke_test: --plot wrote no recompute.png" >&2
  exit 1
fi
# big-model is not in the suite either: named, its one 256 MiB row in the work folder.
"$bench" --scenario big-model --big-model-max-bytes=256M --big-model-dir "$work" --json \
  --plot "$work/big_model" > "$work/big_model.json"
python3 - "$work/big_model.json" <<'CHECK'
import json, sys
rows = json.load(open(sys.argv[1]))["big_model"]
assert len(rows) == 1, rows
row = rows[0]
assert row["correct"], row
assert 200 << 20 < row["data_bytes"] < 300 << 20, row
assert row["fold_seconds"] > 0 and row["cp_seconds"] > 0, row
assert row["output_bytes"] >= row["data_bytes"] * 0.9, row
CHECK
if [ ! -s "$work/big_model/big_model.png" ]; then
  echo "bench_smoke_test: --plot wrote no big_model.png" >&2
  exit 1
fi
if ls "$work" | grep -q graphgc-big-model; then
  echo "bench_smoke_test: big-model left its files behind" >&2
  exit 1
fi
echo "bench_smoke_test: suite, recompute, big-model, JSON and charts ok"
