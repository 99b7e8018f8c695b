#!/usr/bin/env bash
# Installs the Debian 12 packages massive-cpp needs, and only those missing.
#   scripts/install-deps.sh            everything: the library, its tests, benchmarks and tools
#   scripts/install-deps.sh --library  only what the library and the samples build with (the
#                                      quickstart's set)
# Idempotent; works as root or through sudo. Nothing is downloaded at build time.
set -euo pipefail

library=(
  g++ cmake ninja-build pkg-config
  libboost1.81-dev libboost-url1.81-dev
  libsimdjson-dev libssl-dev zlib1g-dev
  libisal-dev                        # ISA-L's inflater (zlib is the fallback without it)
)
tests=(
  git openssl
  python3                            # the regeneration tests (tests/codegen/*.py), the fuzz seeds
  ccache                             # scripts/test.sh's compiler cache, for later runs
  lld                                # the sanitizer builds' linker (3 times bfd's speed there)
  doctest-dev libbenchmark-dev
  clang-14 libclang-rt-14-dev        # libFuzzer and sanitizer runtimes for the fuzz targets
  libtsan2                           # g++'s ThreadSanitizer runtime (build-tsan; comes with g++ 12)
  nlohmann-json3-dev                 # benchmark baseline only
  libcurl4-openssl-dev curl nginx-light time  # end-to-end benchmark only (GNU time: peak RSS)
  doxygen                            # API reference (the `docs` target and its check)
  zsh                                # the command-line tool's zsh completion, tested
  tinyproxy                          # the proxy suite (tests/transport/proxy_test.cpp)
  qemu-user-static                   # an older x86-64 CPU for the CPU-refusal test
  nodejs                             # the official JS client in the stream benchmark only
  isal                               # igzip, the inflate floor of the gzip benchmarks
  libnats-dev                        # the relay through NATS JetStream (massive::relay, optional)
  nats-server                        # the relay's tests start it (JetStream, one node and a cluster)
  awscli                             # the flat files' S3 mock checked by the AWS CLI (tests/files)
  python3-pandas                     # the flat-files benchmark's pandas.read_csv baseline only
  python3-yaml                       # scripts/sync-spec.sh reads a description published as YAML
)
# npm installs that client (scripts/bench-stream.sh). A Node.js build that bundles npm (and
# conflicts with Debian's npm package) already has it.
command -v npm >/dev/null || tests+=(npm)

case "${1:-}" in
  --library) packages=("${library[@]}") ;;
  "") packages=("${library[@]}" "${tests[@]}") ;;
  *) echo "usage: $0 [--library]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
echo "installing: ${missing[*]}" >&2
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
