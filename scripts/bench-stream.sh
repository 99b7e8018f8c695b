#!/usr/bin/env bash
# End-to-end stream benchmark over loopback TLS (issue 18, item 7): a server process
# (massive_bench_stream_server) pushes EVENTS stock trades, 100 per frame, to one client, as fast
# as it can, then at a fixed RATE for the latency; the client is ours (massive_bench_stream_client,
# massive::stream::client) or the official JS client (@massive.com/client-js's stream API,
# version pinned in bench/stream_e2e/js/package.json, installed here by npm without a lock
# file: its own dependencies float within its ranges). Each run prints one
# line per client: events, seconds, events_per_s, cpu_s, cpu_s_per_million, peak_rss_kib and the
# latency from the server's send time to the handler (p50_us, p99_us, p999_us; in the
# throughput run it mostly measures the queueing of a saturated pipe, read it in the rate run).
#
#   scripts/bench-stream.sh                          10 million events, latency at 100,000/s for 10 s
#   EVENTS=20000 LATENCY_EVENTS=20000 scripts/bench-stream.sh   a quick check that it runs
#
# Environment: EVENTS (default 10000000), RATE (default 100000 events/s), LATENCY_EVENTS (default
# 1000000, that is 10 s at RATE), BUILD_DIR (default build-bench-stream), CLIENTS (default
# "floor sdk js": floor is massive_bench_stream_floor, the same frames received and discarded), JOBS (build jobs, default 2). Everything runs on 127.0.0.1; every process ends
# with the run.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib/bench-build.sh"
build="${BUILD_DIR:-$root/build-bench-stream}"
events="${EVENTS:-10000000}"
rate="${RATE:-100000}"
latency_events="${LATENCY_EVENTS:-1000000}"
clients="${CLIENTS:-floor sdk js}"

for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "bench-stream: $tool not found (scripts/install-deps.sh)" >&2; exit 1; }
done

bench_build "$root" "$build" massive_bench_stream_e2e
bin="$build/bench/stream_e2e"
js="$root/bench/stream_e2e/js"
if [[ " $clients " == *" js "* ]]; then
  (cd "$js" && npm install --no-audit --no-fund --no-package-lock --silent)
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/massive-bench-stream.XXXXXX")"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill "$server_pid"; fi
  rm -rf "$work"
}
trap cleanup EXIT

# run <client> <events> [server flags...]: one server, one client; prints the client's line.
run() {
  local client="$1" n="$2"
  shift 2
  rm -f "$work/port"
  "$bin/massive_bench_stream_server" --events "$n" --cert "$work/cert.pem" "$@" >"$work/port" &
  server_pid=$!
  for _ in $(seq 100); do grep -q '^port' "$work/port" 2>/dev/null && break; sleep 0.05; done
  local port
  port="$(awk '/^port/ {print $2}' "$work/port")"
  [ -n "$port" ] || { echo "bench-stream: the server did not start" >&2; exit 1; }
  case "$client" in
    sdk) "$bin/massive_bench_stream_client" --url "wss://127.0.0.1:$port/stocks" --ca "$work/cert.pem" --events "$n" ;;
    floor) "$bin/massive_bench_stream_floor" --port "$port" --ca "$work/cert.pem" --events "$n" ;;
    js) NODE_EXTRA_CA_CERTS="$work/cert.pem" node "$js/client.mjs" --url "wss://127.0.0.1:$port" --events "$n" ;;
  esac
  wait "$server_pid"
  server_pid=""
}

echo "throughput: $events events as fast as the server can push them"
for client in $clients; do run "$client" "$events"; done
echo "latency: $latency_events events at $rate events/s"
for client in $clients; do run "$client" "$latency_events" --rate "$rate"; done
