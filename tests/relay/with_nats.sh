#!/usr/bin/env bash
# Runs a command with nats-server (JetStream) on a free loopback port, its URL in NATS_URL;
# the server is killed afterwards. The command's exit status is the script's.
#   tests/relay/with_nats.sh <nats-server> <command> [args...]
set -euo pipefail
nats_server=$1
shift
dir=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$nats_server" -a 127.0.0.1 -p "$port" -js -sd "$dir/store" >"$dir/nats.log" 2>&1 &
nats_pid=$!
trap 'kill -9 $nats_pid 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$dir"' EXIT
for _ in $(seq 200); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.05; done
NATS_URL="nats://127.0.0.1:$port" "$@"
