#!/usr/bin/env bash
# Builds the libFuzzer targets with clang 14 (ASan + UBSan) and runs each for <seconds>:
# fuzz_decode (the decoder's entry points on agg, trade and quote), fuzz_models (every
# generated row decoder, through the model table), fuzz_transport (whole HTTP answers read
# by the client over loopback: status line, headers, framing, gzip, error bodies) and
# fuzz_stream (the stream's frame decoder: any bytes as a frame, in chunks), fuzz_files (the
# flat-file CSV decoder: any bytes as an inflated file, in chunks).
#
#   scripts/fuzz.sh <seconds> [libFuzzer flags...]
#   FUZZ_TARGETS=fuzz_transport scripts/fuzz.sh 600     (one target only)
#   JOBS=1 scripts/fuzz.sh 60                          (build with one job instead of two)
#
# The build lives in BUILD_DIR (default build-fuzz); the corpora grow across runs in
# $BUILD_DIR/fuzz-corpus, fuzz-models-corpus, fuzz-transport-corpus and fuzz-stream-corpus,
# seeded on every run by tests/fuzz/seeds.py from the recorded responses in
# ../shared/wire-samples, the stream description's examples and API-NOTES.md's recorded frames
# (read at run time, never copied into the repository) and from rows synthesised for every
# model. Findings (crash-*, timeout-*, oom-*, leak-* reproducers) land in $BUILD_DIR/fuzz-findings/<target>;
# the script prints each target's executions and findings and exits non-zero when there is
# one. Once fixed, a finding is kept in tests/fuzz/findings/<target>/: the fuzz_replay_* tests
# replay every input there in CI. Installs nothing: clang-14 and libclang-rt-14-dev come from scripts/install-deps.sh.
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
stream_spec="$root/spec/massive-websocket.json"
api_notes="$root/../shared/API-NOTES.md"

for tool in clang-14 clang++-14 python3; do
  command -v "$tool" >/dev/null || { echo "$tool not found: run scripts/install-deps.sh" >&2; exit 2; }
done

# The top-level project reaches tests/fuzz only through tests/; tests/fuzz/standalone
# wraps it so that the test suites are neither configured nor built. -O1 without NDEBUG:
# the SDK's assertions stay armed while fuzzing.
CC=clang-14 CXX=clang++-14 cmake -S "$root/tests/fuzz/standalone" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
  -DMASSIVE_BUILD_FUZZERS=ON -DMASSIVE_BUILD_TESTS=OFF -DMASSIVE_BUILD_SAMPLES=OFF >/dev/null
targets="${FUZZ_TARGETS:-fuzz_decode fuzz_models fuzz_transport fuzz_stream fuzz_files}"
cmake --build "$build" -j"${JOBS:-2}" --target $targets
# The whole SDK must also compile warning-free with clang 14; the fuzz target needs only its
# decoding part, so a failure elsewhere is reported without stopping the run.
# massive::sdk is an INTERFACE target: build what it links, and the tables.
groups=$(sed -n 's/^set(MASSIVE_GROUPS \(.*\))$/\1/p' "$root/generated/libraries.cmake")
# shellcheck disable=SC2086
if ! cmake --build "$build" -j"${JOBS:-2}" --target massive_stream massive_reflection $(printf 'massive_%s ' $groups) \
    >"$build/clang-sdk.log" 2>&1; then
  echo "warning: massive_sdk does not compile with clang 14 (see $build/clang-sdk.log):" >&2
  grep -E 'error:|warning:' "$build/clang-sdk.log" | sort -u | head -10 >&2
fi

# Seeds for every target and the models' dictionary (tests/fuzz/seeds.py).
python3 "$root/tests/fuzz/seeds.py" "$samples" "$root/generated" "$build" "$stream_spec" "$api_notes"
mkdir -p "$build/fuzz-findings"

# run <target> <corpus> <dictionary> [flags]: fuzzes for $seconds, prints the executions and
# the findings; non-zero when there is one.
run() {
  local target="$1" corpus="$2" dict="$3" findings="$build/fuzz-findings/$1"
  shift 3
  local log="$build/$target-last.log"
  mkdir -p "$findings"
  local before status executions
  before=$(ls "$findings" | wc -l)
  set +e
  "$build/fuzz/$target" "$corpus" \
    -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=4096 \
    -dict="$dict" -artifact_prefix="$findings/" -print_final_stats=1 "$@" 2>"$log"
  status=$?
  set -e
  executions=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  echo "$target: ${executions:-?} executions in ${seconds}s; corpus $(ls "$corpus" | wc -l) inputs; log $log"
  if [[ $status -ne 0 || $(ls "$findings" | wc -l) -gt $before ]]; then
    echo "$target: FINDING (exit status $status)"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz_(decode|models|transport|stream|files):|.*runtime error)' "$log" | head -20 || true
    grep -o 'Test unit written to .*' "$log" || true
    return 1
  fi
  echo "$target: no findings"
}

failed=0
for target in $targets; do
  case "$target" in
    fuzz_decode) run fuzz_decode "$build/fuzz-corpus" "$root/tests/fuzz/decode.dict" "$@" || failed=1 ;;
    fuzz_models) run fuzz_models "$build/fuzz-models-corpus" "$build/fuzz-models.dict" "$@" || failed=1 ;;
    fuzz_transport) run fuzz_transport "$build/fuzz-transport-corpus" "$root/tests/fuzz/http.dict" "$@" || failed=1 ;;
    fuzz_stream) run fuzz_stream "$build/fuzz-stream-corpus" "$root/tests/fuzz/decode.dict" "$@" || failed=1 ;;
    fuzz_files) run fuzz_files "$build/fuzz-files-corpus" "$root/tests/fuzz/files.dict" "$@" || failed=1 ;;
    *) echo "unknown fuzz target $target" >&2; exit 2 ;;
  esac
done
exit $failed
