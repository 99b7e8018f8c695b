#!/usr/bin/env bash
# Builds the libFuzzer target fuzz_decode with clang 14 (ASan + UBSan) and runs it.
#
#   scripts/fuzz.sh <seconds> [libFuzzer flags...]
#
# The build lives in BUILD_DIR (default build-fuzz); the corpus grows across runs in
# $BUILD_DIR/fuzz-corpus, seeded on every run from the recorded responses in
# ../shared/wire-samples (read at run time, never copied into the repository) plus a few
# bodies of each payload shape. Findings (crash-*, timeout-*, oom-*, leak-* reproducers)
# land in $BUILD_DIR/fuzz-findings; the script prints the executions and the findings and
# exits non-zero when there is one. Installs nothing: clang-14 and libclang-rt-14-dev come
# from scripts/install-deps.sh.
set -euo pipefail

if [[ $# -lt 1 || ! "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: $0 <seconds> [libFuzzer flags...]" >&2
  exit 2
fi
seconds="$1"
shift

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build-fuzz}"
samples="${MASSIVE_WIRE_SAMPLES:-$root/../shared/wire-samples}"

for tool in clang-14 clang++-14 python3; do
  command -v "$tool" >/dev/null || { echo "$tool not found: run scripts/install-deps.sh" >&2; exit 2; }
done

# The top-level project reaches tests/fuzz only through tests/; tests/fuzz/standalone
# wraps it so that the test suites are neither configured nor built. -O1 without NDEBUG:
# the SDK's assertions stay armed while fuzzing.
CC=clang-14 CXX=clang++-14 cmake -S "$root/tests/fuzz/standalone" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
  -DMASSIVE_BUILD_FUZZERS=ON -DMASSIVE_BUILD_TESTS=OFF -DMASSIVE_BUILD_SAMPLES=OFF >/dev/null
cmake --build "$build" -j2 --target fuzz_decode
# The whole SDK must also compile warning-free with clang 14; the fuzz target needs only its
# decoding part, so a failure elsewhere is reported without stopping the run.
if ! cmake --build "$build" -j2 --target massive_sdk >"$build/clang-sdk.log" 2>&1; then
  echo "warning: massive_sdk does not compile with clang 14 (see $build/clang-sdk.log):" >&2
  grep -E 'error:|warning:' "$build/clang-sdk.log" | sort -u | head -10 >&2
fi

corpus="$build/fuzz-corpus"
findings="$build/fuzz-findings"
mkdir -p "$corpus" "$findings"

# Seeds: byte 0 = model + 3 * shape (see tests/fuzz/fuzz_decode.cpp), byte 1 = chunking.
python3 - "$samples" "$corpus" <<'PY'
import hashlib, json, os, sys

samples, corpus = sys.argv[1], sys.argv[2]
models = {"agg": 0, "trade": 1, "quote": 2}
shapes = {"results_array": 0, "results_object": 1, "document": 2, "top_level_array": 3,
          "results_values": 4}
seeds = []

def add(model, shape, body):
    for split in (0x00, 0x03, 0x05, 0x07, 0x44, 0x84):
        seeds.append(bytes([models[model] + 3 * shapes[shape], split]) + body)

def compact(value):
    return json.dumps(value, separators=(",", ":")).encode()

rows = {}
for name in sorted(os.listdir(samples)) if os.path.isdir(samples) else []:
    if not name.endswith(".json"):
        continue
    raw = open(os.path.join(samples, name), "rb").read()
    model = "quote" if "quotes" in name or "nbbo" in name else "trade" if "trade" in name else "agg"
    shape = "results_object" if "__last__" in name else "results_array"
    add(model, shape, raw)
    doc = json.loads(raw)
    results = doc.get("results") if isinstance(doc, dict) else None
    if isinstance(results, list) and results and isinstance(results[0], dict):
        rows.setdefault(model, results[0])

# Every model in every shape, from a recorded row when there is one.
fallback = {"agg": {"o": 1.5, "h": 2, "l": 1, "c": 1.75, "v": 1.0e6, "t": 1112331600000},
            "trade": {"id": "1", "price": 1.5, "size": 10, "exchange": 4, "sequence_number": 1,
                      "sip_timestamp": 1651181822461979400,
                      "participant_timestamp": 1651181822461636600},
            "quote": {"sip_timestamp": 1652191872800638700,
                      "participant_timestamp": 1652191872800402200, "sequence_number": 1}}
for model in models:
    row = rows.get(model, fallback[model])
    add(model, "results_array", compact({"results": [row, row], "status": "OK", "count": 2}))
    add(model, "results_object", compact({"status": "OK", "results": row, "request_id": "x"}))
    add(model, "document", compact(row))
    add(model, "top_level_array", compact([row, row]))
    add(model, "results_values",
        compact({"results": {"underlying": {"url": "u"}, "values": [row]}, "status": "OK"}))

for seed in seeds:
    with open(os.path.join(corpus, "seed-" + hashlib.sha1(seed).hexdigest()), "wb") as f:
        f.write(seed)
print(f"{len(seeds)} seeds in {corpus}", file=sys.stderr)
PY

log="$build/fuzz-last.log"
before=$(ls "$findings" | wc -l)
set +e
"$build/fuzz/fuzz_decode" "$corpus" \
  -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=4096 \
  -dict="$root/tests/fuzz/decode.dict" -artifact_prefix="$findings/" -print_final_stats=1 \
  "$@" 2>"$log"
status=$?
set -e

executions=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | awk '{print $2}')
echo "fuzz_decode: ${executions:-?} executions in ${seconds}s; corpus $(ls "$corpus" | wc -l) inputs; log $log"
after=$(ls "$findings" | wc -l)
if [[ $status -ne 0 || $after -gt $before ]]; then
  echo "fuzz_decode: FINDING (exit status $status)"
  grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz_decode:|.*runtime error)' "$log" | head -20 || true
  grep -o 'Test unit written to .*' "$log" || true
  exit 1
fi
echo "fuzz_decode: no findings"
