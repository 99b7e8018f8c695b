#!/usr/bin/env bash
# The command-line tool's output speed (issue 34, item 3): `massive stocks trades --all-pages`
# over a multi-page trades traversal served by nginx over loopback HTTPS, written to /dev/null as
# CSV (times as ISO 8601) and as JSON Lines, against the SDK's own traversal of the same pages
# (bench/e2e/sdk_client.cpp, which decodes and drops the rows), both asking for gzip. Prints rows
# a second of each and the tool's time over the SDK's (docs/maintainers/performance-cli.md).
#
#   scripts/bench-cli.sh            10 pages x 50,000 trades, RUNS (default 3) interleaved rounds
#   scripts/bench-cli.sh --smoke    3 pages x 2,000 trades, one run, each format's output checked
#
# --smoke is the ctest `bench_cli_smoke` (optimised build): it writes the output to files and
# holds each one to the digest the fixture writer computed from the text it wrote
# (bench/e2e/cli_check.cpp parses the CSV and the JSON Lines back), so that a fast tool that
# prints wrong rows fails. Its timings mean nothing.
#
# Environment: CLI (the massive binary; default $BUILD_DIR/cli/massive), E2E_BIN (the directory
# of massive_e2e_fixtures, massive_e2e_sdk and massive_e2e_cli_check; default $BUILD_DIR/bench/e2e),
# BUILD_DIR (default build), RUNS. Nothing is built here. nginx serves the pages as it does for
# scripts/bench-e2e.sh (scripts/lib/fixture-nginx.sh), stopped on exit.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib/fixture-nginx.sh"
build="${BUILD_DIR:-$root/build}"
cli="${CLI:-$build/cli/massive}"
bin="${E2E_BIN:-$build/bench/e2e}"
smoke=0
[ "${1:-}" = "--smoke" ] && smoke=1
if [ "$smoke" = 1 ]; then pages=3 rows=2000 runs=1; else pages=10 rows=50000 runs="${RUNS:-3}"; fi

nginx="$(command -v nginx || echo /usr/sbin/nginx)"
for tool in "$nginx" openssl curl python3 "$cli" "$bin/massive_e2e_fixtures" "$bin/massive_e2e_sdk" \
  "$bin/massive_e2e_cli_check"; do
  command -v "$tool" >/dev/null || { echo "bench-cli: $tool not found" >&2; exit 1; }
done

work="$(mktemp -d "${TMPDIR:-/tmp}/massive-bench-cli.XXXXXX")"
nginx_pid=""
cleanup() {
  if [ -n "$nginx_pid" ] && kill -0 "$nginx_pid" 2>/dev/null; then kill -TERM "$nginx_pid"; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap "exit 130" INT TERM

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
origin="https://127.0.0.1:$port"
fixture_certificate "$work"
"$bin/massive_e2e_fixtures" "$work" "$origin" 1 "$pages" "$rows" >/dev/null
fixture_nginx "$nginx" "$work" "$port"
for _ in $(seq 50); do
  curl -s --fail --cacert "$work/cert.pem" -o /dev/null "$origin/v3/trades/AAPL" && break
  sleep 0.1
done

expected_rows="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["trades"]["rows"])' "$work/manifest.json")"
expected_hash="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["trades"]["hash"])' "$work/manifest.json")"
first_target="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["trades"]["first_target"])' "$work/manifest.json")"

# The wall time of "$@", in seconds.
wall() {
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null
  end=$(date +%s%N)
  python3 -c "print(($end - $start) / 1e9)"
}

export MASSIVE_API_KEY=bench
massive_trades() {
  "$cli" stocks trades -p stockTicker=AAPL -p "limit=$rows" --all-pages --max-pages "$pages" \
    --base-url "$origin" --ca-file "$work/cert.pem" "$@"
}

if [ "$smoke" = 1 ]; then
  status=0
  for format in csv jsonl; do
    massive_trades -f "$format" -o "$work/out.$format"
    got="$("$bin/massive_e2e_cli_check" "$format" "$work/out.$format")"
    if [ "$got" != "rows=$expected_rows hash=$expected_hash" ]; then
      echo "bench-cli: the $format output reads back as '$got', the fixtures hold rows=$expected_rows hash=$expected_hash" >&2
      status=1
    else
      echo "bench-cli: $format: $got, as the fixtures"
    fi
  done
  exit "$status"
fi

# Rounds of the three, interleaved, so that a load from elsewhere on the machine falls on all
# three alike; then the best time of each and the median of each round's ratio to the SDK.
for _ in $(seq "$runs"); do
  # Both ask for gzip (the tool's default, as the SDK's): nginx sends the .gz beside each page.
  sdk=$(wall "$bin/massive_e2e_sdk" trades "$origin" "$work/cert.pem" "$first_target" 1)
  csv=$(wall massive_trades -f csv -o /dev/null)
  jsonl=$(wall massive_trades -f jsonl -o /dev/null)
  echo "$sdk $csv $jsonl"
done >"$work/times"
python3 - "$expected_rows" "$work/times" <<'PY'
import statistics, sys
rows = int(sys.argv[1])
rounds = [tuple(map(float, line.split())) for line in open(sys.argv[2])]
print(f"{rows:,} trades, {len(rounds)} interleaved rounds, wall time of the whole process (start-up and TLS included)")
print(f"{'client':<30}{'best s':>8}{'best rows/s':>13}{'median x SDK':>14}")
for i, name in enumerate(("SDK traversal (decode only)", "massive -f csv -o /dev/null", "massive -f jsonl -o /dev/null")):
    best = min(r[i] for r in rounds)
    ratio = statistics.median(r[i] / r[0] for r in rounds)
    print(f"{name:<30}{best:>8.3f}{rows / best:>13,.0f}{ratio:>14.2f}")
PY
