#!/bin/sh
# graphgc-bench's whole suite at small sizes: every row must run and be right (the bench exits
# non-zero otherwise), --json must be one valid JSON document, and --plot must write every chart.
#   bench_smoke_test.sh GRAPHGC_BENCH WORK_DIR
set -eu
bench=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
"$bench" --n=10,100 --json > "$work/suite.json"
python3 -m json.tool "$work/suite.json" > /dev/null
"$bench" --n=10,100 --plot "$work/charts" > "$work/suite.txt"
for chart in boundary memory_chain memory_fanout memory_mlp memory_shapes time_chain time_fanout \
             time_mlp time_shapes; do
  if [ ! -s "$work/charts/$chart.png" ]; then
    echo "bench_smoke_test: --plot wrote no $chart.png" >&2
    exit 1
  fi
done
echo "bench_smoke_test: suite, JSON and charts ok"
