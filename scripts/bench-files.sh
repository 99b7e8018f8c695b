#!/usr/bin/env bash
# The flat files' benchmark (issue 36, item 7): a deterministic synthetic day of stock trades
# (ROWS, default 10,000,000) as a .csv.gz, read
#   from disk:  the SDK (inflate + decode into pages; files::client from its cache, on one
#               thread and with inflate_ahead on two), beside the inflate floors `igzip -dc`
#               (Debian's isal) and `gzip -dc`, Python's csv module and pandas.read_csv;
#   over loopback TLS from the mock's S3 bucket (its own process): the SDK's files::client,
#               beside `curl` to /dev/null (the transfer floor) and `aws s3 cp` then pandas.
# Prints one line per arm: seconds, rows/s (implied by the row count for the floors) and peak
# RSS (GNU time), then the ratios the issue's targets are stated in. Figures and their machine in
# docs/maintainers/performance-files.md.
#
#   scripts/bench-files.sh            (run it under the build lock: flock /tmp/massive-build.lock ...)
#
# Environment: BUILD_DIR (default build), ROWS, WORK (default a temporary directory; the day is
# generated once per directory), SKIP_SLOW=1 (leaves out pandas and Python's csv, minutes each).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
rows="${ROWS:-10000000}"
work="${WORK:-$(mktemp -d)}"
bench="$build/bench/files/massive_bench_files"
for tool in igzip gzip curl python3 aws /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench-files: $tool not found (scripts/install-deps.sh)" >&2; exit 1; }
done
[ -x "$bench" ] || cmake --build "$build" --target massive_bench_files
mkdir -p "$work"
day="$work/day.csv.gz"
[ -s "$day" ] || "$bench" generate "$day" "$rows"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git -C "$root" rev-parse --short HEAD); file: $(stat -c %s "$day") bytes, $rows rows"

# timed <name> <command...>: runs it under GNU time, prints seconds, rows/s and peak RSS.
timed() {
  local name="$1"
  shift
  /usr/bin/time -f '%e %M' -o "$work/time" "$@" >"$work/out" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
  read -r seconds rss <"$work/time"
  printf '%-34s %8.2f s %12.0f rows/s %8d MiB peak RSS\n' "$name" "$seconds" "$(awk -v r="$rows" -v s="$seconds" 'BEGIN { print r / s }')" \
    "$((rss / 1024))"
  echo "$seconds" >"$work/$name.seconds"
}

timed igzip igzip -dc "$day"
timed gzip gzip -dc "$day"
timed sdk_local "$bench" local "$day"
cat "$work/out" >&2
# The library's own path from disk: files::client reading the day from its cache directory, on
# one thread, then with files_config::inflate_ahead on an io_context run by two.
timed sdk_cached "$bench" cached "$day"
cat "$work/out" >&2
timed sdk_cached_inflate_ahead "$bench" cached "$day" inflate-ahead
cat "$work/out" >&2
if [ -z "${SKIP_SLOW:-}" ]; then
  timed python_csv /usr/bin/python3 -c "import csv, gzip, sys
n = sum(1 for _ in csv.reader(gzip.open(sys.argv[1], 'rt', newline='')))
print(n - 1)" "$day"
  timed pandas /usr/bin/python3 -c "import pandas, sys
print(len(pandas.read_csv(sys.argv[1])))" "$day"
fi

# The mock's bucket in a process of its own, so that the client's RSS is the client's.
serve="$work/serve"
rm -rf "$serve"
rm -f "$work/stdin"
mkfifo "$work/stdin"
"$bench" serve "$day" "$serve" <"$work/stdin" >/dev/null &
server=$!
exec 3>"$work/stdin"
trap 'exec 3>&-; wait $server 2>/dev/null || true' EXIT
while [ ! -s "$serve/object" ]; do sleep 0.2; done
endpoint="$(cat "$serve/endpoint")"
object="$(cat "$serve/object")"
timed curl curl -s --cacert "$serve/ca.pem" --aws-sigv4 "aws:amz:us-east-1:s3" \
  -u "$(cat "$serve/key"):$(cat "$serve/secret")" -o /dev/null "$endpoint/flatfiles/$object"
timed sdk_tls_ranges_ahead_1 "$bench" remote "$serve" 1
cat "$work/out" >&2
timed sdk_tls_ranges_ahead_3 "$bench" remote "$serve" 3
cat "$work/out" >&2
timed sdk_tls_two_threads "$bench" remote "$serve" 3 two-threads
cat "$work/out" >&2
timed sdk_tls_inflate_ahead "$bench" remote "$serve" 3 inflate-ahead
cat "$work/out" >&2
if [ -z "${SKIP_SLOW:-}" ]; then
  printf '[default]\ns3 =\n  addressing_style = path\n' >"$work/aws-config"
  timed aws_cp_then_pandas env AWS_ACCESS_KEY_ID="$(cat "$serve/key")" AWS_SECRET_ACCESS_KEY="$(cat "$serve/secret")" \
    AWS_DEFAULT_REGION=us-east-1 AWS_CONFIG_FILE="$work/aws-config" AWS_CA_BUNDLE="$serve/ca.pem" \
    sh -c "aws s3 cp s3://flatfiles/$object '$work/copy.csv.gz' --endpoint-url '$endpoint' --only-show-errors &&
           /usr/bin/python3 -c \"import pandas, sys; print(len(pandas.read_csv(sys.argv[1])))\" '$work/copy.csv.gz'"
fi

ratio() { awk -v a="$(cat "$work/$2.seconds")" -v b="$(cat "$work/$1.seconds")" 'BEGIN { printf "%.2f", a / b }'; }
echo "sdk_local rows/s vs igzip's implied rows/s: $(ratio sdk_local igzip) x (target >= 0.7)"
echo "sdk_cached_inflate_ahead (two threads) vs igzip: $(ratio sdk_cached_inflate_ahead igzip) x (target >= 0.7); one thread: $(ratio sdk_cached igzip) x"
echo "sdk_local vs gzip -dc: $(ratio sdk_local gzip) x"
[ -z "${SKIP_SLOW:-}" ] && echo "sdk_local vs pandas.read_csv: $(ratio sdk_local pandas) x (target >= 20)"
slower_floor=curl
if awk -v i="$(cat "$work/igzip.seconds")" -v c="$(cat "$work/curl.seconds")" 'BEGIN { exit !(i > c) }'; then
  slower_floor=igzip
fi
echo "sdk over TLS (ranges_ahead 3) vs the slower floor ($slower_floor): $(ratio sdk_tls_ranges_ahead_3 $slower_floor) x (target >= 0.7)"
echo "sdk over TLS, transfers on a second thread, vs the slower floor: $(ratio sdk_tls_two_threads $slower_floor) x"
echo "sdk over TLS, transfers and inflation on a second thread, vs the slower floor: $(ratio sdk_tls_inflate_ahead $slower_floor) x"
