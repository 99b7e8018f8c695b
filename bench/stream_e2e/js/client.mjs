// The end-to-end stream benchmark's client on the official side (scripts/bench-stream.sh): the
// official JS client's stream API (@massive.com/client-js, websocketClient(...).stocks(),
// version pinned in package.json) consuming massive_bench_stream_server until it has N trades,
// parsing each message as its documentation's examples do (JSON.parse).
//
//   NODE_EXTRA_CA_CERTS=cert.pem node client.mjs --url wss://127.0.0.1:P --events N
//
// Prints the line bench/stream_e2e/sdk_client.cpp prints, with the CPU time from the first
// event on and the latency in the same histogram (64 buckets per power of two, the lower bound
// of the quantile's bucket).
import { websocketClient } from "@massive.com/client-js";

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, arg, i, all) =>
  i % 2 === 0 ? [...pairs, [arg.replace(/^--/, ""), all[i + 1]]] : pairs, []));
const wanted = Number(args.events);

const perPower = 64;
const counts = new Float64Array(perPower * perPower);
let total = 0;
function addLatency(ns) {
  const n = Math.max(0, Math.floor(ns));
  let bucket = n;
  if (n >= perPower) {
    const exponent = Math.floor(Math.log2(n));
    bucket = (exponent - 5) * perPower + (Math.floor(n / 2 ** (exponent - 6)) % perPower);
  }
  counts[bucket] += 1;
  total += 1;
}
function quantile(q) {
  const rank = Math.floor(q * total);
  let below = 0;
  for (let b = 0; b < counts.length; ++b) {
    below += counts[b];
    if (below > rank) return b < perPower ? b : (perPower + (b % perPower)) * 2 ** (Math.floor(b / perPower) - 1);
  }
  return 0;
}

const ws = websocketClient("bench", args.url).stocks();
let seen = 0;
let first = 0n;
let cpuAtFirst = null;
let reported = false;
ws.onerror = (error) => {
  console.error("js client:", error.message ?? error);
  process.exit(1);
};
ws.onmessage = (message) => {
  const now = process.hrtime.bigint();  // CLOCK_MONOTONIC, as the server's stamps
  const events = JSON.parse(message.data);
  if (events[0].ev === "status") {
    if (events[0].status === "auth_success") ws.send(JSON.stringify({ action: "subscribe", params: "T.*" }));
    return;
  }
  if (seen === 0) {
    first = now;
    cpuAtFirst = process.cpuUsage();
  }
  const nowNs = Number(now);
  for (const event of events) {
    if (event.ev !== "T") continue;
    addLatency(nowNs - event.q);
    ++seen;
  }
  if (seen < wanted || reported) return;
  reported = true;
  const seconds = Number(process.hrtime.bigint() - first) / 1e9;
  const cpu = process.cpuUsage(cpuAtFirst);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  const us = (ns) => (ns / 1e3).toFixed(1);
  // Written before exiting: console.log to a pipe is asynchronous, and exit() would lose it.
  const line = `client js events ${seen} seconds ${seconds.toFixed(3)} ` +
    `events_per_s ${(seen / seconds).toFixed(0)} cpu_s ${cpuS.toFixed(3)} ` +
    `cpu_s_per_million ${(cpuS * 1e6 / seen).toFixed(3)} peak_rss_kib ${process.resourceUsage().maxRSS} ` +
    `p50_us ${us(quantile(0.5))} p99_us ${us(quantile(0.99))} p999_us ${us(quantile(0.999))}\n`;
  process.stdout.write(line, () => process.exit(0));
};
