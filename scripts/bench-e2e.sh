#!/usr/bin/env bash
# End-to-end benchmark over loopback HTTPS (issue 5, item 7): the SDK's client against curl
# (the transfer floor), libcurl + simdjson and libcurl + nlohmann::json, traversing the same
# page chains (20 pages x 50,000 aggregates, 10 pages x 50,000 trades) served by Debian's
# nginx, with gzip off and on. Prints one table and the ratios the targets are stated in
# (docs/maintainers/performance-e2e.md, "End to end over loopback HTTPS"). About 2.5 minutes once built.
#
#   scripts/bench-e2e.sh
#
# Environment: BUILD_DIR (default build-e2e), RUNS (timed runs per client and workload,
# default 3), E2E_BIN (a directory holding already built massive_e2e_* binaries: skips the
# build), KEEP=1 (keep the temporary directory: fixtures, nginx config and log), ZLIB_BIN and
# BASE_BIN (see the client list below: the SDK built with zlib, or from another commit, beside it).
#
# Everything runs on 127.0.0.1: nginx is started by this script as an unprivileged-port
# instance with its own config, certificate and fixtures in a temporary directory, and is
# stopped on exit. Exits non-zero if any client fails or disagrees on the rows it read.
#
# Fairness: every client (curl included) runs with the same malloc settings (GLIBC_TUNABLES
# below: a fixed 32 MiB mmap threshold and no trimming below 1 GiB, the steady state of a
# long-running process); the clients run in a new random order in every round (the seed is
# printed; SEED=<n> repeats an order); and each of our clients reports its own time from its
# first request to its last row beside the whole process's wall time.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib/bench-build.sh"
source "$root/scripts/lib/fixture-nginx.sh"
build="${BUILD_DIR:-$root/build-e2e}"
runs="${RUNS:-3}"

# Debian puts nginx in /usr/sbin, which an unprivileged user's PATH often lacks.
nginx="$(command -v nginx || echo /usr/sbin/nginx)"
for tool in "$nginx" openssl curl python3 /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench-e2e: $tool not found (scripts/install-deps.sh)" >&2; exit 1; }
done

if [ -n "${E2E_BIN:-}" ]; then
  bin="$E2E_BIN"
else
  # A build directory of its own is configured with the benchmarks alone; one that exists (the
  # tests' build, say) only gains the benchmarks and keeps its other options.
  bench_build "$root" "$build" massive_e2e
  bin="$build/bench/e2e"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/massive-e2e.XXXXXX")"
nginx_pid=""
cleanup() {
  if [ -n "$nginx_pid" ] && kill -0 "$nginx_pid" 2>/dev/null; then
    kill -TERM "$nginx_pid"
    for _ in $(seq 50); do kill -0 "$nginx_pid" 2>/dev/null || break; sleep 0.1; done
  fi
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap "exit 130" INT TERM

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
origin="https://127.0.0.1:$port"

fixture_certificate "$work"

echo "writing fixtures to $work" >&2
"$bin/massive_e2e_fixtures" "$work" "$origin"
fixture_nginx "$nginx" "$work" "$port"
# Ready when it answers; the handshake it reports goes into the machine line.
tls=""
for _ in $(seq 50); do
  tls="$(curl -sv --fail --cacert "$work/cert.pem" -o /dev/null "$origin/v3/trades/AAPL" 2>&1 |
    sed -n 's/^\* SSL connection using //p')" && [ -n "$tls" ] && break
  sleep 0.1
done
[ -n "$tls" ] || { echo "bench-e2e: nginx does not answer on $origin" >&2; cat "$work/error.log" >&2; exit 1; }

if [ -n "${E2E_BIN:-}" ]; then
  revision="binaries from $E2E_BIN"
else
  revision="$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)"
fi
NGINX="$nginx" python3 - "$work" "$origin" "$bin" "$runs" "$revision" "$tls" <<'PY'
import json, os, random, statistics, subprocess, sys, time

work, origin, bin_dir, runs, revision, tls = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6]
cert = os.path.join(work, "cert.pem")
manifest = json.load(open(os.path.join(work, "manifest.json")))

def curl_command(chain, gzip):
    cmd = ["curl", "-sS", "--fail", "--cacert", cert, "-H", "Authorization: Bearer bench",
           "-w", "%{http_code} %{size_download} %{num_connects}\\n"]
    if gzip:
        cmd.append("--compressed")
    for url in chain["urls"]:
        cmd += [url, "-o", "/dev/null"]
    return cmd

clients = {
    "massive": lambda w, c, g: [f"{bin_dir}/massive_e2e_sdk", w, origin, cert, c["first_target"], str(int(g))],
    # Two threads run the io_context; the client decodes beside the receive (issue 35 item 1).
    "massive/2 threads": lambda w, c, g: [f"{bin_dir}/massive_e2e_sdk", w, origin, cert, c["first_target"], str(int(g)), "2"],
    "curl": lambda w, c, g: curl_command(c, g),
    "libcurl+simdjson": lambda w, c, g: [f"{bin_dir}/massive_e2e_libcurl", "simdjson", w, origin, cert, c["first_target"], str(int(g))],
    "libcurl+nlohmann": lambda w, c, g: [f"{bin_dir}/massive_e2e_libcurl", "nlohmann", w, origin, cert, c["first_target"], str(int(g))],
}
# Other builds of the SDK's client, each run as one more client for an A/B in the same run:
# ZLIB_BIN, a directory holding a massive_e2e_sdk built with -DMASSIVE_WITH_ISAL=OFF (the
# inflater's A/B, ISA-L against zlib); BASE_BIN, one built from another commit (a change's A/B).
ab_arms = {"massive/zlib": ("ZLIB_BIN", "(the inflater's A/B)"), "massive/base": ("BASE_BIN", "(A/B against BASE_BIN)")}
for name, (variable, _) in ab_arms.items():
    if os.environ.get(variable):
        clients[name] = lambda w, c, g, d=os.environ[variable]: [f"{d}/massive_e2e_sdk", w, origin, cert, c["first_target"], str(int(g))]

# The same malloc behaviour in every client, set from outside so that curl gets it too: what
# mallopt(M_MMAP_THRESHOLD, 32 MiB) and mallopt(M_TRIM_THRESHOLD, 1 GiB) do in the decode
# benchmark (bench/decode.cpp says why).
malloc_env = dict(os.environ, GLIBC_TUNABLES="glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824")
seed = int(os.environ.get("SEED") or random.SystemRandom().randrange(1 << 32))
order_rng = random.Random(seed)

def run(cmd):
    """Wall time, the child's peak RSS and what it printed. The peak comes from GNU time, which
    forks the client from its own small image: a client forked from this Python process would
    report Python's RSS as its own, since Linux's ru_maxrss survives exec."""
    rss_file = os.path.join(work, "rss")
    out = open(os.path.join(work, "out"), "w+")
    err = open(os.path.join(work, "err"), "w+")
    start = time.perf_counter()
    code = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", rss_file] + cmd,
                          stdout=out, stderr=err, env=malloc_env).returncode
    seconds = time.perf_counter() - start
    out.seek(0)
    err.seek(0)
    rss, user, system = open(rss_file).read().split()[-3:]
    return seconds, int(rss), float(user) + float(system), code, out.read(), err.read()

def verify(client, chain, gzip, code, stdout, stderr):
    """The checksum column, or an error message. Seen failing when libcurl+simdjson read the
    close from "o": digest 1000000:81ab05bb13416077, expected 1000000:a4688c01196104e3."""
    if code != 0:
        return None, f"exit {code}: {stderr.strip()[:300]}"
    if client == "curl":
        lines = [l.split() for l in stdout.splitlines() if l.strip()]
        got = sum(int(l[1]) for l in lines)
        want = chain["gzip_bytes" if gzip else "body_bytes"]
        connects = sum(int(l[2]) for l in lines)
        if any(l[0] != "200" for l in lines) or len(lines) != chain["pages"] or got != want:
            return None, f"curl moved {got} bytes in {len(lines)} transfers, expected {want} in {chain['pages']}"
        if connects != 1:
            return None, f"curl opened {connects} connections, expected 1 (keep-alive)"
        return f"{got} B ok", None
    fields = dict(kv.split("=", 1) for kv in stdout.split())
    got = f"{fields['rows']}:{fields['hash']}"
    want = f"{chain['rows']}:{chain['hash']}"
    if got != want or int(fields["pages"]) != chain["pages"]:
        return None, f"digest {got} over {fields['pages']} pages, expected {want} over {chain['pages']}"
    return fields["hash"], None

# Warm-up: nginx's first reads of each file, and the connection path, stay out of the figures.
for workload, chain in manifest.items():
    for gzip in (False, True):
        run(curl_command(chain, gzip))

results = {}  # (client, workload, gzip) -> list of (seconds, rss_kib, fields)
failures = []
for _ in range(runs):
    for workload, chain in manifest.items():
        for gzip in (False, True):
            order = list(clients.items())
            order_rng.shuffle(order)
            for client, command in order:
                seconds, rss, cpu, code, out, err = run(command(workload, chain, gzip))
                check, problem = verify(client, chain, gzip, code, out, err)
                key = (client, workload, gzip)
                if problem:
                    failures.append(f"{client} {workload} gzip={'on' if gzip else 'off'}: {problem}")
                    continue
                fields = {} if client == "curl" else dict(kv.split("=", 1) for kv in out.split())
                results.setdefault(key, []).append((seconds, rss, fields, check, cpu))

def mib(kib):
    return kib / 1024

# The memory floor: the same pages fetched over OpenSSL by a C++ program that decodes nothing
# (bench/e2e/tls_floor.cpp). Untimed; its peak is what (a)'s peak contains before any row.
floor = {}
for workload, chain in manifest.items():
    targets = [url[len(origin):] for url in chain["urls"]]
    _, rss, _, code, out, err = run([f"{bin_dir}/massive_e2e_tls_floor", origin.rsplit(":", 1)[1], cert] + targets)
    fields = dict(kv.split("=", 1) for kv in out.split()) if code == 0 else {}
    if code != 0 or int(fields["body_bytes"]) != chain["body_bytes"]:
        failures.append(f"tls floor {workload}: exit {code}, {out.strip()} {err.strip()[:300]}")
        continue
    floor[workload] = rss

cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
nginx_version = subprocess.run([os.environ.get("NGINX", "nginx"), "-v"], capture_output=True, text=True).stderr.strip().split("/")[-1]
curl_version = subprocess.run(["curl", "--version"], capture_output=True, text=True).stdout.split()[1]
compiler = subprocess.run(["c++", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
print(f"machine: {cpu}, {os.cpu_count()} cores; {compiler}; nginx {nginx_version}, "
      f"curl {curl_version}; {tls} over loopback; source {revision}")
print(f"median of {runs} runs, clients in a random order in each (SEED={seed}); malloc: {malloc_env['GLIBC_TUNABLES']}")
print(f"seconds: wall time of the process; in-proc s: the client's own time from its first request to its "
      f"last row; cpu: its user + system seconds; "
      f"MB/s: uncompressed JSON; peak RSS: GNU time, shared library pages included; private: "
      f"largest anonymous RSS seen with a page alive; load average {os.getloadavg()[0]:.2f} at the end")
print()
print(f"{'client':17} {'workload':14} {'gzip':4} {'rows':>9} {'median s':>9} {'in-proc s':>9} {'cpu s':>6} "
      f"{'rows/s':>11} {'MB/s':>7} {'peak RSS':>10} {'private':>10}  checksum")
summary = {}
for (client, workload, gzip), samples in results.items():
    chain = manifest[workload]
    median = statistics.median(s[0] for s in samples)
    in_process = None if client == "curl" else statistics.median(int(s[2]["traversal_ns"]) / 1e9 for s in samples)
    cpu_median = statistics.median(s[4] for s in samples)
    peak = max(s[1] for s in samples)
    rows_per_s = chain["rows"] / median
    mb_per_s = chain["body_bytes"] / 1e6 / median
    summary[(client, workload, gzip)] = (rows_per_s, mb_per_s, peak, samples, in_process)
    private = "-" if client == "curl" else f"{mib(max(int(s[2]['anonymous_peak_kib']) for s in samples)):6.1f} MiB"
    label = f"{workload} {chain['pages']}x{chain['rows'] // chain['pages'] // 1000}k"
    in_text = "-" if in_process is None else f"{in_process:9.3f}"
    print(f"{client:17} {label:14} {'on' if gzip else 'off':4} {chain['rows']:9,} {median:9.3f} {in_text:>9} {cpu_median:6.2f} "
          f"{rows_per_s:11,.0f} {mb_per_s:7.0f} {mib(peak):6.1f} MiB {private:>10}  {samples[0][3]}")

print()
print(f"{'ratio (rows/s, median wall time)':58} {'value':>7} {'target':>7}  {'status':30} cpu ratio  in-proc ratio")
for workload in manifest:
    for gzip, me in ((g, m) for g in (False, True) for m in ("massive", "massive/2 threads")):
        mine = summary.get((me, workload, gzip))
        if not mine:
            continue
        for other, target in (("libcurl+simdjson", 1.3), ("libcurl+nlohmann", 6.0), ("curl", None),
                              *((arm, None) for arm in ab_arms)):
            if other in ab_arms and me != "massive":
                continue
            theirs = summary.get((other, workload, gzip))
            if not theirs:
                continue
            ratio = mine[0] / theirs[0]
            # The same ratio in CPU seconds: less sensitive to the other builds sharing the cores.
            cpu_ratio = statistics.median(s[4] for s in theirs[3]) / statistics.median(s[4] for s in mine[3])
            if other in ab_arms:
                status, target_text = ab_arms[other][1], "-"
            elif target is None:
                status, target_text = "(the transfer floor: reported)", "-"
            elif gzip:
                status, target_text = "(not a target)", f"{target:.1f}"
            else:
                status, target_text = ("met" if ratio >= target else "MISSED"), f"{target:.1f}"
            name = f"{workload} gzip {'on' if gzip else 'off'}: {me} / {other}"
            # The same ratio over the clients' own first-request-to-last-row times.
            in_ratio = "-" if theirs[4] is None else f"{theirs[4] / mine[4]:13.2f}"
            print(f"{name:58} {ratio:7.2f} {target_text:>7}  {status:30} {cpu_ratio:9.2f}  {in_ratio:>13}")

print()
for workload, chain in manifest.items():
    for gzip in (False, True):
        mine = summary.get(("massive", workload, gzip))
        if not mine:
            continue
        fields = mine[3][0][2]
        per_page = chain["rows"] // chain["pages"]
        ceiling = per_page * int(fields["row_bytes"]) + 8 * 1024 * 1024
        after_two = max(int(s[2]["rss_after_2_pages_kib"]) for s in mine[3])
        at_start = max(int(s[2]["rss_at_start_kib"]) for s in mine[3])
        pool = max(int(s[2]["pool_touched_kib"]) for s in mine[3])
        private = max(int(s[2]["anonymous_peak_kib"]) for s in mine[3])
        status = "met" if mine[2] * 1024 <= ceiling else "MISSED"
        private_status = "met" if private * 1024 <= ceiling else "MISSED"
        print(f"massive peak RSS, {workload} gzip {'on' if gzip else 'off'}: {mib(mine[2]):.1f} MiB "
              f"(at start {mib(at_start):.1f}, after 2 pages {mib(after_two):.1f}; page pool touched "
              f"{mib(pool):.1f} over {chain['pages']} pages); "
              f"ceiling one page of rows ({per_page:,} x {fields['row_bytes']} B) + 8 MiB = "
              f"{ceiling / 2**20:.1f} MiB: {status}; private (anonymous) memory {mib(private):.1f} MiB: "
              f"{private_status}")
    plain = summary.get(("massive", workload, False))
    if workload in floor and plain:
        rows = chain["rows"] // chain["pages"] * int(plain[3][0][2]["row_bytes"]) / 2**20
        print(f"floor, {workload}: a C++ program fetching the same pages over OpenSSL, decoding nothing "
              f"(massive_e2e_tls_floor), peaks at {mib(floor[workload]):.1f} MiB; with one page of rows "
              f"({rows:.1f} MiB) {mib(floor[workload]) + rows:.1f} MiB against the ceiling of "
              f"{rows + 8:.1f} MiB; massive's peak (gzip off) is the floor + "
              f"{mib(plain[2]) - mib(floor[workload]):.1f} MiB")

if failures:
    print()
    for f in failures:
        print("FAILED:", f)
    sys.exit(1)
PY
