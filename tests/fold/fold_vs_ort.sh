#!/usr/bin/env bash
# fold_vs_ort.sh GRAPHGC_FOLD MAKE_MODELS ORT_JS [--huge | --budget | --llm] [--no-memory-checks]
#
# graphgc-fold against ONNX Runtime. Makes the models of make_fold_models in a temporary folder,
# folds each with GRAPHGC_FOLD (--stats; peak RSS from /usr/bin/time when present, else from the
# stats), checks the result with ORT_JS (ort_fold_check.js: outputs agree with the original's,
# node counts, ONNX Runtime's basic optimizations and their peak RSS) and prints one table.
# It fails when:
#   - graphgc-fold fails, or leaves its output behind when it fails;
#   - a folded model does not load in ONNX Runtime, or its outputs differ from the original's;
#   - graphgc leaves more nodes than ONNX Runtime's basic optimizations plus nodes_kept_for_size;
#   - big_intermediates folded is 8 KB or more, or graphgc's peak RSS is 1/3 of ONNX Runtime's
#     or more (while making its basic-optimized session);
#   - growth folded is larger than the original.
# Then folds a sample of ONNX's backend test models (every 10th node case, every simple and
# pytorch-* case): wherever ONNX Runtime can run the original on the case's test inputs, the fold
# must succeed and the outputs agree; fold_known_failures.txt lists the cases allowed to fail,
# with the reason.
#
# --huge instead makes huge.onnx (2.5 GB of external data), then llm.onnx (make_fold_models
# --llm=13,2048: 2.6 GB, half of it behind weight Transposes), folds each with --external-data
# and no memory budget, and requires a peak RSS of at most $FOLD_HUGE_RSS_LIMIT_BYTES (512 MiB),
# the Transposes folded, and that ONNX Runtime runs the result as the original. Everything it
# writes is deleted on exit.
# --budget instead makes budget.onnx (128 weights of 4 MiB folded from 140 KB), folds it with
# --fold-anyway --external-data once without a budget and once with --memory-budget 64M, and
# requires the two results to be the same bytes (model and external data), the budgeted fold to
# have computed values again and to peak under 256 MiB of RSS, and ONNX Runtime to run the result
# as the original.
# --llm instead makes llm.onnx (make_fold_models --llm=2,128: a decoder-only transformer with its
# weights in external data), folds it with --external-data, and requires the six weight
# Transposes to be folded and ONNX Runtime to run the result as the original.
# --no-memory-checks leaves out the peak RSS checks (for sanitizer builds).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
usage="usage: fold_vs_ort.sh GRAPHGC_FOLD MAKE_MODELS ORT_JS [--huge | --budget | --llm] [--no-memory-checks]"
(($# >= 3)) || { echo "$usage" >&2; exit 2; }
fold_cli=$1 make_models=$2 ort_js=$3
shift 3
huge=0 budget=0 llm=0 memory_checks=1
for arg in "$@"; do
  case $arg in
    --huge) huge=1 ;;
    --budget) budget=1 ;;
    --llm) llm=1 ;;
    --no-memory-checks) memory_checks=0 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
for tool in "$fold_cli" "$make_models"; do
  [[ -x $tool ]] || { echo "fold_vs_ort: $tool is not an executable (not built?)" >&2; exit 2; }
done
[[ -f $ort_js ]] || { echo "fold_vs_ort: no $ort_js" >&2; exit 2; }
command -v node >/dev/null || { echo "fold_vs_ort: node not found (tools/bootstrap)" >&2; exit 2; }
time_cmd=""
[[ -x /usr/bin/time ]] && time_cmd=/usr/bin/time

work=$(mktemp -d "${TMPDIR:-/tmp}/fold_vs_ort.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
failures=()
fail() { failures+=("$*"); }

# The values of KEYS in a JSON file, tab-separated; "null" for a missing key or a bad file, "-"
# for an empty string or list (an empty field would vanish in `read`).
json_values() {
  node -e '
    let o = {};
    try { o = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); } catch (e) {}
    console.log(process.argv.slice(2).map((k) => {
      const v = o[k];
      return v === undefined || v === null ? "null" :
             (Array.isArray(v) ? v.join("; ") : String(v)) || "-";
    }).join("\t"));' "$@"
}

file_bytes() { stat -c %s "$1" 2>/dev/null || echo null; }

# Bytes of a model and the external data files beside it that its name starts.
model_bytes() {
  local total=0 file
  for file in "$1" "$1".*; do [[ -f $file ]] && total=$((total + $(stat -c %s "$file"))); done
  echo "$total"
}

folder_bytes() {
  local total=0 file
  for file in "$1"/*; do [[ -f $file ]] && total=$((total + $(stat -c %s "$file"))); done
  echo "$total"
}

human() {
  [[ $1 == null ]] && { echo "-"; return; }
  awk -v b="$1" 'BEGIN {
    if (b < 1024) printf "%dB", b; else if (b < 1048576) printf "%.1fK", b / 1024;
    else if (b < 1073741824) printf "%.1fM", b / 1048576; else printf "%.2fG", b / 1073741824 }'
}

# fold NAME INPUT EXTRA_OPTIONS...: folds INPUT into $work/out/NAME/NAME.onnx (that folder holds
# only what graphgc-fold writes) and writes stats.json, stderr and peak_rss (bytes) into
# $work/log/NAME. Fails (status 1) when graphgc-fold does.
fold() {
  local name=$1 input=$2
  shift 2
  local dir=$work/log/$name
  mkdir -p "$dir" "$work/out/$name"
  local output=$work/out/$name/$name.onnx status
  if [[ -n $time_cmd ]]; then
    "$time_cmd" -f %M -o "$dir/time_kb" "$fold_cli" "$input" "$output" --quiet \
      --stats "$dir/stats.json" "$@" 2>"$dir/stderr"
    status=$?
  else
    "$fold_cli" "$input" "$output" --quiet --stats "$dir/stats.json" "$@" 2>"$dir/stderr"
    status=$?
  fi
  if ((status != 0)); then
    local left
    left=$(ls -A "$work/out/$name")
    [[ -z $left ]] || fail "$name: graphgc-fold failed and left behind:" $left
    return 1
  fi
  local peak=null
  if [[ -s $dir/time_kb ]]; then
    peak=$(($(tail -n 1 "$dir/time_kb") * 1024))
  else
    peak=$(json_values "$dir/stats.json" peak_rss_bytes)
  fi
  echo "$peak" >"$dir/peak_rss"
  return 0
}

stderr_line() { tail -n 1 "$work/log/$1/stderr" 2>/dev/null; }

# ---- The huge model ----

run_huge() {
  local limit=${FOLD_HUGE_RSS_LIMIT_BYTES:-536870912}
  local models=$work/models
  mkdir -p "$models"
  echo "== making huge.onnx"
  "$make_models" "$models" --huge || { echo "fold_vs_ort: make_fold_models failed"; exit 1; }
  rm -f "$models"/{conv_bn_relu,shape_chain,growth,big_intermediates}.onnx
  fold_big huge "$limit" 1
  rm -f "$models"/huge.onnx*
  rm -rf "$work/out/huge"
  echo "== making llm.onnx (13 layers of 2048)"
  "$make_models" "$models" --llm=13,2048 || { echo "fold_vs_ort: make_fold_models failed"; exit 1; }
  # 13 layers, each with Q, V and the MLP's up weight behind a Transpose.
  fold_big llm "$limit" 39
}

# fold_big NAME LIMIT MIN_FOLDED: folds $work/models/NAME.onnx with --external-data and no memory
# budget, and requires a peak RSS under LIMIT bytes, at least MIN_FOLDED nodes folded, and that
# ONNX Runtime runs the result as the original.
fold_big() {
  local name=$1 limit=$2 min_folded=$3 models=$work/models
  echo "== folding $name.onnx ($(human "$(model_bytes "$models/$name.onnx")"))"
  if ! fold "$name" "$models/$name.onnx" --external-data; then
    fail "$name: graphgc-fold failed: $(stderr_line "$name")"
    return
  fi
  local dir=$work/log/$name out=$work/out/$name
  local initializer_bytes peak folded seconds
  IFS=$'\t' read -r initializer_bytes folded seconds < <(json_values "$dir/stats.json" \
    initializer_bytes_before nodes_folded total_seconds)
  peak=$(cat "$dir/peak_rss")
  echo "   initializer bytes $initializer_bytes, nodes folded $folded, peak RSS $(human "$peak")," \
       "$seconds s, output $(human "$(folder_bytes "$out")") in $(ls "$out" | tr '\n' ' ')"
  if [[ $initializer_bytes == null || $peak == null ]]; then
    fail "$name: no initializer_bytes_before or peak RSS (stats: $dir/stats.json)"
  elif ((memory_checks)); then
    ((peak <= limit)) || fail "$name: graphgc-fold's peak RSS $peak > $limit"
  fi
  [[ $folded != null ]] && ((folded >= min_folded)) ||
    fail "$name: $folded nodes folded, fewer than $min_folded"
  echo "== running $name.onnx and the folded model in ONNX Runtime"
  node "$ort_js" "$models/$name.onnx" "$out/$name.onnx" --skip-basic --single-run \
    >"$dir/ort.json" 2>"$dir/ort.stderr"
  local status=$? agree error
  IFS=$'\t' read -r agree error < <(json_values "$dir/ort.json" outputs_agree error)
  echo "   outputs agree: $agree"
  ((status == 0)) || fail "$name: ONNX Runtime check failed (status $status): $error" \
                          "$(tail -n 1 "$dir/ort.stderr")"
}

# ---- The budget model ----

run_budget() {
  local models=$work/models
  mkdir -p "$models"
  echo "== making budget.onnx"
  "$make_models" "$models" --budget || { echo "fold_vs_ort: make_fold_models failed"; exit 1; }
  local run peak status
  for run in unbounded budgeted; do
    local extra=() dir=$work/log/$run out=$work/out/$run
    [[ $run == budgeted ]] && extra=(--memory-budget 64M)
    mkdir -p "$dir" "$out"
    echo "== folding budget.onnx ($run)"
    if [[ -n $time_cmd ]]; then
      "$time_cmd" -f %M -o "$dir/time_kb" "$fold_cli" "$models/budget.onnx" "$out/budget.onnx"         --quiet --fold-anyway --external-data --stats "$dir/stats.json" "${extra[@]}"         2>"$dir/stderr"
      status=$?
      peak=$(($(tail -n 1 "$dir/time_kb") * 1024))
    else
      "$fold_cli" "$models/budget.onnx" "$out/budget.onnx" --quiet --fold-anyway         --external-data --stats "$dir/stats.json" "${extra[@]}" 2>"$dir/stderr"
      status=$?
      peak=$(json_values "$dir/stats.json" peak_rss_bytes)
    fi
    if ((status != 0)); then
      fail "budget: graphgc-fold ($run) failed: $(tail -n 1 "$dir/stderr")"
      return
    fi
    local evicted recomputed written
    IFS=$'\t' read -r evicted recomputed written < <(json_values "$dir/stats.json" \
      values_evicted values_recomputed initializer_bytes_after)
    echo "   peak RSS $(human "$peak"), initializers written $(human "$written"), values" \
         "evicted $evicted, computed again $recomputed"
    if [[ $run == budgeted ]]; then
      [[ $recomputed != null ]] && ((recomputed > 0)) ||
        fail "budget: the budgeted fold computed no value again (values_recomputed $recomputed)"
      if ((memory_checks)); then
        [[ $peak != null ]] && ((peak < 256 * 1048576)) ||
          fail "budget: the budgeted fold's peak RSS $peak is not under 256 MiB"
      fi
    fi
  done
  local file
  for file in budget.onnx budget.onnx.data; do
    cmp -s "$work/out/unbounded/$file" "$work/out/budgeted/$file" ||
      fail "budget: $file differs between the unbounded and the budgeted fold"
  done
  echo "== running budget.onnx and the budgeted fold in ONNX Runtime"
  local dir=$work/log/budgeted
  node "$ort_js" "$models/budget.onnx" "$work/out/budgeted/budget.onnx" --skip-basic \
    --single-run >"$dir/ort.json" 2>"$dir/ort.stderr"
  status=$?
  local agree error
  IFS=$'\t' read -r agree error < <(json_values "$dir/ort.json" outputs_agree error)
  echo "   outputs agree: $agree"
  ((status == 0)) || fail "budget: ONNX Runtime check failed (status $status): $error" \
                          "$(tail -n 1 "$dir/ort.stderr")"
}

# ---- The LLM-shaped model ----

run_llm() {
  local models=$work/models
  mkdir -p "$models"
  echo "== making llm.onnx (2 layers of 128)"
  "$make_models" "$models" --llm=2,128 || { echo "fold_vs_ort: make_fold_models failed"; exit 1; }
  echo "== folding llm.onnx"
  if ! fold llm "$models/llm.onnx" --external-data; then
    fail "llm: graphgc-fold failed: $(stderr_line llm)"
    return
  fi
  local dir=$work/log/llm nodes_before nodes_after folded
  IFS=$'\t' read -r nodes_before nodes_after folded < <(json_values "$dir/stats.json" \
    nodes_before nodes_after nodes_folded)
  echo "   nodes $nodes_before -> $nodes_after, peak RSS $(human "$(cat "$dir/peak_rss")")"
  # The six weights stored [out, in] behind a Transpose (Q, V and the MLP's up, two layers).
  [[ $folded != null ]] && ((folded >= 6)) ||
    fail "llm: only $folded nodes folded; the six weight Transposes should be"
  node "$ort_js" "$models/llm.onnx" "$work/out/llm/llm.onnx" --skip-basic >"$dir/ort.json" \
    2>"$dir/ort.stderr"
  local status=$? agree error
  IFS=$'\t' read -r agree error < <(json_values "$dir/ort.json" outputs_agree error)
  echo "   outputs agree: $agree"
  ((status == 0)) || fail "llm: ONNX Runtime check failed (status $status): $error" \
                          "$(tail -n 1 "$dir/ort.stderr")"
}

# ---- The fold models ----

# check_model NAME: folds $work/models/NAME.onnx, checks it, and appends a row to $work/table.
check_model() {
  local name=$1 original=$work/models/$1.onnx
  local dir=$work/log/$name
  if ! fold "$name" "$original"; then
    fail "$name: graphgc-fold failed: $(stderr_line "$name")"
    printf '%s\tgraphgc-fold failed\n' "$name" >>"$work/table"
    return
  fi
  local folded=$work/out/$name/$name.onnx
  node "$ort_js" "$original" "$folded" --basic-out "$work/basic_$name.onnx" >"$dir/ort.json" \
    2>"$dir/ort.stderr"
  local status=$?
  local agree max_diff nodes_original nodes_folded nodes_ort ort_rss mismatches skipped error \
        basic_error
  IFS=$'\t' read -r agree max_diff nodes_original nodes_folded nodes_ort ort_rss mismatches \
    skipped error basic_error < <(json_values "$dir/ort.json" outputs_agree max_abs_diff \
    nodes_original nodes_folded nodes_ort_basic ort_basic_peak_rss_bytes mismatches skipped error \
    basic_error)
  local kept_size init_before init_after
  IFS=$'\t' read -r kept_size init_before init_after < <(json_values "$dir/stats.json" \
    nodes_kept_for_size initializer_bytes_before initializer_bytes_after)
  local peak original_bytes folded_bytes basic_bytes
  peak=$(cat "$dir/peak_rss")
  original_bytes=$(model_bytes "$original")
  folded_bytes=$(folder_bytes "$work/out/$name")
  basic_bytes=$(file_bytes "$work/basic_$name.onnx")

  case $status in
    0) ;;
    1) fail "$name: folded model: ${error/null/outputs differ}; ${mismatches/#-/}" ;;
    3) fail "$name: ONNX Runtime cannot run the original: $skipped" ;;
    *) fail "$name: ort_fold_check failed (status $status): $(tail -n 1 "$dir/ort.stderr")" ;;
  esac
  [[ $kept_size == null ]] && fail "$name: no nodes_kept_for_size in the stats"
  if [[ $nodes_ort == null ]]; then
    fail "$name: no node count from ONNX Runtime's basic optimizations: $basic_error"
  elif [[ $nodes_folded != null && $kept_size != null ]] &&
       ((nodes_folded > nodes_ort + kept_size)); then
    fail "$name: graphgc leaves $nodes_folded nodes, ONNX Runtime basic $nodes_ort" \
         "+ $kept_size kept for size"
  fi
  if [[ $name == big_intermediates ]]; then
    ((folded_bytes < 8192)) || fail "$name: folded model is $folded_bytes bytes (limit 8192)"
    if ((memory_checks)); then
      if [[ $peak == null || $ort_rss == null ]]; then
        fail "$name: no peak RSS (graphgc $peak, ONNX Runtime $ort_rss)"
      elif ((peak * 3 >= ort_rss)); then
        fail "$name: graphgc's peak RSS $(human "$peak") is not below 1/3 of ONNX Runtime's" \
             "$(human "$ort_rss")"
      fi
    fi
  fi
  if [[ $name == growth ]] && ((folded_bytes > original_bytes)); then
    fail "$name: folded model ($folded_bytes bytes) is larger than the original ($original_bytes)"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$nodes_original" \
    "$nodes_folded" "$nodes_ort" "$kept_size" "$(human "$init_before")" "$(human "$init_after")" \
    "$(human "$original_bytes")" "$(human "$folded_bytes")" "$(human "$basic_bytes")" \
    "$agree ($max_diff)" "$(human "$peak")" "$(human "$ort_rss")" >>"$work/table"
}

print_table() {
  {
    printf 'model\tnodes\tgraphgc\tORT basic\tkept for size\tinit bytes\tafter\tfile bytes\t'
    printf 'graphgc\tORT basic\toutputs agree (max diff)\tgraphgc peak RSS\tORT peak RSS\n'
    cat "$work/table"
  } | if command -v column >/dev/null; then column -t -s $'\t'; else cat; fi
}

# ---- The backend sample ----

backend_cases() {
  local data=/usr/share/libonnx-testdata/data
  [[ -d $data/node ]] && ls -d "$data"/node/*/ | awk 'NR % 10 == 1'
  ls -d "$data"/simple/*/ "$data"/pytorch-*/*/ 2>/dev/null
}

known_failure() {
  grep -q "^$1 " "$here/fold_known_failures.txt" 2>/dev/null
}

run_backend_sample() {
  local total=0 agree=0 skipped=0 failed=0 known=0 case_dir name
  while IFS= read -r case_dir; do
    [[ -f $case_dir/model.onnx ]] || continue
    name=$(basename "$case_dir")
    total=$((total + 1))
    local problem="" dir=$work/log/backend_$name inputs=()
    [[ -d $case_dir/test_data_set_0 ]] && inputs=(--inputs "$case_dir/test_data_set_0")
    local folded=$work/out/backend_$name/backend_$name.onnx
    if ! fold "backend_$name" "$case_dir/model.onnx"; then
      problem="graphgc-fold failed: $(stderr_line "backend_$name")"
      # Only a model ONNX Runtime runs must fold: check the original against itself.
      folded=$case_dir/model.onnx
    fi
    node "$ort_js" "$case_dir/model.onnx" "$folded" --skip-basic "${inputs[@]}" \
      >"$dir/ort.json" 2>"$dir/ort.stderr"
    local status=$? error mismatches
    IFS=$'\t' read -r error mismatches < <(json_values "$dir/ort.json" error mismatches)
    case $status in
      0) [[ -z $problem ]] && agree=$((agree + 1)) ;;
      3) skipped=$((skipped + 1)) problem="" ;;
      1) problem="folded model: ${error/null/outputs differ}; ${mismatches/#-/}" ;;
      *) problem="ort_fold_check failed (status $status): $(tail -n 1 "$dir/ort.stderr")" ;;
    esac
    if [[ -n $problem ]]; then
      if known_failure "$name"; then
        known=$((known + 1))
        echo "   known: $name: $problem"
      else
        failed=$((failed + 1))
        fail "backend $name: $problem"
      fi
    fi
    rm -rf "$work/out/backend_$name" "$dir"
  done < <(backend_cases)
  echo "backend sample: $total models: $agree agree, $skipped not runnable by ONNX Runtime," \
       "$known known failures, $failed failed"
}

if ((huge)); then
  run_huge
elif ((budget)); then
  run_budget
elif ((llm)); then
  run_llm
else
  mkdir -p "$work/models"
  "$make_models" "$work/models" || { echo "fold_vs_ort: make_fold_models failed"; exit 1; }
  : >"$work/table"
  for model in conv_bn_relu shape_chain growth big_intermediates; do check_model "$model"; done
  print_table
  echo
  run_backend_sample
fi

echo
if ((${#failures[@]})); then
  echo "fold_vs_ort: ${#failures[@]} failure(s):"
  printf '  %s\n' "${failures[@]}"
  exit 1
fi
echo "fold_vs_ort: all checks passed"
