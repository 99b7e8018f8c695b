#!/usr/bin/env bash
# The relay benchmark (issue 37, item 6): massive_bench_stream_server pushes stock trades (100
# per frame, every one AAPL's) over loopback TLS to the relay (massive_bench_relay), which
# publishes them into nats-server with JetStream (one node, file storage, started here in a
# temporary directory); consumers (massive_bench_relay_consumer, massive::relay::consumer of T.*)
# read them back. Against the baseline: massive_bench_stream_client reading the server directly.
#
#   scripts/bench-relay.sh          the figures of docs/maintainers/performance-relay.md
#   EVENTS=200000 CONSUMER_EVENTS=100000 MIXED_EVENTS=20000 LATENCY_EVENTS=100000 CONSUMERS="1 4" \
#     scripts/bench-relay.sh        a quick check that it runs
#
# Phases, each with its own server and (but the first) its own nats-server:
#   direct      the baseline: the stream client reading EVENTS from the server, as fast as it
#               pushes them, then LATENCY_EVENTS at RATE events/s.
#   relay       the relay forwarding EVENTS into JetStream as fast as the server pushes them
#               (no consumer running), file storage; then, on that stream, K consumers at once
#               for each K of CONSUMERS, each reading the first CONSUMER_EVENTS trades (every
#               consumer reads every trade, as services subscribed to T.* do): their sum.
#               Again with memory storage; again with MIXED_EVENTS trades of TICKERS tickers in
#               turn, so that the relay publishes one message per event (its worst case).
#   live        one consumer waiting on the stream, then the server and the relay, EVENTS as
#               fast as they go: what a consumer through the relay reads end to end.
#   latency     the same at RATE events/s, LATENCY_EVENTS trades: the consumer's latency from the
#               server's send time; the relay adds its difference from the direct client's.
# Each process prints one line of `key value` pairs (events, seconds, events_per_s, cpu_s,
# cpu_s_per_million, peak_rss_kib; p50_us p99_us p999_us for the clients, meaningful only at a
# fixed rate); `consumers K` lines add K consumers up (events over the span from the first
# one's first batch to the last one's last event); `upstream-server ... nats-server` lines give
# those two processes' CPU seconds over the relay's run.
#
# Environment: PHASES (default "direct relay live latency"), EVENTS (default 2000000),
# CONSUMER_EVENTS (default 500000), CONSUMERS (default "1 4 16"), MIXED_EVENTS (default
# 500000), TICKERS (default 100), RATE (default 100000), LATENCY_EVENTS (default 500000),
# BUILD_DIR (default build-bench-relay), JOBS (build jobs, default 2), NATS_SERVER (default
# nats-server), PERF_DIR (when set: the relay runs under `perf record -e cpu-clock -g` in the
# file-storage and mixed phases, its profiles written there as relay.perf.data and
# relay-mixed.perf.data). Everything runs on 127.0.0.1; every process started here ends with
# the run.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib/bench-build.sh"
build="${BUILD_DIR:-$root/build-bench-relay}"
events="${EVENTS:-2000000}"
consumer_events="${CONSUMER_EVENTS:-500000}"
consumers="${CONSUMERS:-1 4 16}"
rate="${RATE:-100000}"
latency_events="${LATENCY_EVENTS:-500000}"
mixed_events="${MIXED_EVENTS:-500000}"
tickers="${TICKERS:-100}"
nats_server="${NATS_SERVER:-nats-server}"
phases="${PHASES:-direct relay live latency}"

command -v "$nats_server" >/dev/null || { echo "bench-relay: $nats_server not found (scripts/install-deps.sh)" >&2; exit 1; }
if [ -n "${PERF_DIR:-}" ]; then
  command -v perf >/dev/null || { echo "bench-relay: perf not found (linux-perf)" >&2; exit 1; }
fi

bench_build "$root" "$build" massive_bench_relay_e2e
stream_bin="$build/bench/stream_e2e"
relay_bin="$build/bench/relay"

work="$(mktemp -d "${TMPDIR:-/tmp}/massive-bench-relay.XXXXXX")"
started=()
cleanup() {
  for pid in "${started[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then kill "$pid" 2>/dev/null || true; fi
  done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# start_nats: a fresh nats-server with JetStream on a free port; sets nats_url and nats_pid.
start_nats() {
  rm -rf "$work/nats"
  mkdir -p "$work/nats"
  local port
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  "$nats_server" -a 127.0.0.1 -p "$port" -js -sd "$work/nats/store" >"$work/nats/log" 2>&1 &
  nats_pid=$!
  started+=("$nats_pid")
  for _ in $(seq 200); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.05; done
  nats_url="nats://127.0.0.1:$port"
}

stop_nats() {
  kill "$nats_pid"
  wait "$nats_pid" 2>/dev/null || true
}

# start_server <events> [server flags...]: the upstream; sets server_pid and server_url.
start_server() {
  local n="$1"
  shift
  rm -f "$work/port"
  "$stream_bin/massive_bench_stream_server" --events "$n" --cert "$work/cert.pem" "$@" >"$work/port" &
  server_pid=$!
  started+=("$server_pid")
  for _ in $(seq 100); do grep -q '^port' "$work/port" 2>/dev/null && break; sleep 0.05; done
  local port
  port="$(awk '/^port/ {print $2}' "$work/port")"
  [ -n "$port" ] || { echo "bench-relay: the server did not start" >&2; exit 1; }
  server_url="wss://127.0.0.1:$port/stocks"
}

# relay <events> [relay flags...]: the relay from the server to nats_url, in the foreground;
# under perf when RELAY_PERF names an output file.
relay() {
  local n="$1"
  shift
  local cmd=("$relay_bin/massive_bench_relay" --url "$server_url" --ca "$work/cert.pem" --nats "$nats_url" --events "$n" "$@")
  if [ -n "${RELAY_PERF:-}" ]; then
    perf record -q -e cpu-clock -g -o "$RELAY_PERF" -- "${cmd[@]}"
  else
    "${cmd[@]}"
  fi
}

# cpu_of <pid>: the process's user + system seconds so far.
cpu_of() {
  awk -v tick="$(getconf CLK_TCK)" '{ printf "%.3f", ($14 + $15) / tick }' "/proc/$1/stat"
}

# relay_phase <events> <relay flags> <server flags>: a fresh nats-server, the server and the
# relay; prints the relay's line, then the upstream server's and nats-server's CPU seconds over
# the run (nats-server's from its start: it idles before). nats-server keeps running.
relay_phase() {
  local n="$1" relay_flags="$2" server_flags="$3"
  start_nats
  # shellcheck disable=SC2086 # the flags are words
  start_server "$n" $server_flags
  # shellcheck disable=SC2086
  relay "$n" $relay_flags
  wait "$server_pid"
  echo "upstream-server $(awk '/^cpu_s/' "$work/port") nats-server cpu_s $(cpu_of "$nats_pid")"
}

# consumers <k> <events>: k consumers at once, each reading <events> from the stream's start;
# prints each one's line, then their sum.
consumers() {
  local k="$1" n="$2" pids=() i
  for i in $(seq "$k"); do
    "$relay_bin/massive_bench_relay_consumer" --nats "$nats_url" --events "$n" >"$work/consumer.$i" &
    pids+=($!)
    started+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
  cat "$work"/consumer.*
  awk -v k="$k" '{
      for (f = 1; f < NF; f += 2) v[$f] = $(f + 1)
      events += v["events"]; cpu += v["cpu_s"]
      if (first == "" || v["first_ns"] < first) first = v["first_ns"]
      if (v["last_ns"] > last) last = v["last_ns"]
    } END {
      s = (last - first) / 1e9
      printf "consumers %d events %d seconds %.3f events_per_s %.0f cpu_s %.3f cpu_s_per_million %.3f\n",
             k, events, s, events / s, cpu, cpu * 1e6 / events
    }' "$work"/consumer.*
  rm -f "$work"/consumer.*
}

# phase <name>: true when PHASES holds it.
phase() { [[ " $phases " == *" $1 "* ]]; }

echo "machine: $(nproc) cores; load before: $(uptime)"
echo "commit: $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- sdk bench || echo ' (modified)')"

if phase direct; then
  echo "direct: $events events as fast as the server pushes them, then $latency_events at $rate/s"
  start_server "$events"
  "$stream_bin/massive_bench_stream_client" --url "$server_url" --ca "$work/cert.pem" --events "$events"
  wait "$server_pid"
  start_server "$latency_events" --rate "$rate"
  "$stream_bin/massive_bench_stream_client" --url "$server_url" --ca "$work/cert.pem" --events "$latency_events"
  wait "$server_pid"
fi

if phase relay; then
  echo "relay: $events events into JetStream (file storage) as fast as the server pushes them"
  RELAY_PERF="${PERF_DIR:+$PERF_DIR/relay.perf.data}" relay_phase "$events" "" ""
  for k in $consumers; do
    echo "relay: $k consumer(s) reading $consumer_events events each from the stream"
    consumers "$k" "$consumer_events"
  done
  stop_nats

  echo "relay: $events events into JetStream (memory storage) as fast as the server pushes them"
  relay_phase "$events" "--memory 1" ""
  stop_nats

  echo "relay: $mixed_events events of $tickers tickers in turn (one message per event), file storage"
  RELAY_PERF="${PERF_DIR:+$PERF_DIR/relay-mixed.perf.data}" relay_phase "$mixed_events" "" "--tickers $tickers"
  stop_nats
fi

# live <events> [server flags...]: one consumer waiting on a fresh nats-server, then the
# server and the relay; prints the relay's line, then the consumer's.
live() {
  local n="$1"
  shift
  start_nats
  rm -f "$work/ready"
  "$relay_bin/massive_bench_relay_consumer" --nats "$nats_url" --events "$n" --ready "$work/ready" >"$work/live" &
  local consumer_pid=$!
  started+=("$consumer_pid")
  for _ in $(seq 400); do [ -f "$work/ready" ] && break; sleep 0.025; done
  [ -f "$work/ready" ] || { echo "bench-relay: the consumer did not start" >&2; exit 1; }
  start_server "$n" "$@"
  relay "$n"
  wait "$consumer_pid"
  wait "$server_pid"
  cat "$work/live"
  stop_nats
}

if phase live; then
  echo "live: one consumer through the relay, $events events as fast as they go"
  live "$events"
fi
if phase latency; then
  echo "latency: one consumer through the relay, $latency_events events at $rate/s"
  live "$latency_events" --rate "$rate"
fi
echo "load after: $(uptime)"
