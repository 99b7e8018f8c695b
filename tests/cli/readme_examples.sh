#!/usr/bin/env bash
# The README's command-line examples, run against the embedded mock. Each ```sh block of the
# README that starts with `# from tests/cli/readme_examples.sh` is a verbatim excerpt of this
# file (scripts/check-readme-snippets.sh holds it to that), and the checks after each excerpt
# fail this script, with what was wrong, when an example stops working.
#
# Usage: readme_examples.sh <path of the built massive>
set -euo pipefail
cli=$(realpath "$1")
self=$(realpath "${BASH_SOURCE[0]}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# `massive` as the README spells it; what it prints is kept for the checks.
massive() { "$cli" "$@" | tee -a printed; return "${PIPESTATUS[0]}"; }
fail() { echo "readme_examples: $*" >&2; exit 1; }

# Help, from the description.
massive --help
massive stocks --help
massive stocks aggregates --help

grep -q '^  stocks ' printed || fail "--help lists no stocks group"
grep -q '^  trades  *Trades \[pages\]$' printed || fail "stocks --help lists no trades operation"
grep -q '^  timespan  one of second, minute, hour, day, week, month, quarter, year' printed ||
  fail "stocks aggregates --help shows no timespan values"
: >printed

# Daily bars as a table; a day of trades to a CSV file; rows as JSON Lines for jq and friends.
massive stocks aggregates --mock -p stocksTicker=AAPL -p multiplier=1 -p timespan=day \
  -p from=2024-01-02 -p to=2024-01-05 --format table
massive stocks trades --mock -p stockTicker=AAPL -p timestamp=2024-01-10 -p limit=50000 \
  --all-pages --format csv --output trades.csv
massive reference tickers --mock -p market=stocks -p limit=3 --format jsonl

[ "$(grep -c ' 2024-01-0[2-5]T00:00:00.000Z ' printed)" -eq 4 ] || fail "the table has no 4 daily bars"
[ "$(wc -l <trades.csv)" -eq 20001 ] || fail "trades.csv has $(wc -l <trades.csv) lines, not a header and 20,000 trades"
head -n 1 trades.csv | grep -q '^id,sip_timestamp,' || fail "trades.csv has no header"
[ "$(grep -c '^{"active":' printed)" -eq 3 ] || fail "not 3 JSON Lines of tickers"

# Flat files: a month's files, one day's file as it is, a week of one ticker's trades as CSV.
# (Seen failing with --ticker ignored: "aapl.csv has 2401 lines, not a header and 4 days of 200
# trades".)
massive files ls stocks trades 2024-01 --mock
massive files get stocks trades 2024-01-12 --mock -o 2024-01-12.csv.gz
massive files rows stocks trades 2024-01-11 2024-01-16 --ticker AAPL --format csv --mock >aapl.csv

grep -q '^us_stocks_sip/trades_v1/2024/01/2024-01-12.csv.gz ' printed || fail "files ls lists no 2024-01-12"
[ "$(zcat 2024-01-12.csv.gz | head -n 1)" = "ticker,conditions,correction,exchange,id,participant_timestamp,price,sequence_number,sip_timestamp,size,tape,trf_id,trf_timestamp" ] ||
  fail "files get wrote no trades file"
[ "$(wc -l <aapl.csv)" -eq 801 ] || fail "aapl.csv has $(wc -l <aapl.csv) lines, not a header and 4 days of 200 trades"
: >printed

# A stream's events, each with its type (the mock's stream prints exactly this):
massive stream stocks T.AAPL,Q.AAPL --mock --count 2 --format csv
# ev,T.c,T.i,T.p,T.q,T.s,T.sym,T.t,T.trfi,T.trft,T.x,T.z,Q.ap,Q.as,Q.ax,Q.bp,Q.bs,Q.bx,Q.c,Q.i,Q.q,Q.sym,Q.t,Q.z
# T,"0, 12",x0,100.25,100,100,AAPL,2023-11-14T22:13:20.000Z,100,2023-11-14T22:13:20.000Z,100,100,,,,,,,,,,,,
# Q,,,,,,,,,,,,100.5,101,101,100.5,101,101,101,"1, 12",101,AAPL,2023-11-14T22:13:20.001Z,101

# Each page whole, as the API's object (with an indicator's underlying bars when asked for):
massive stocks sma --mock -p stockTicker=AAPL -p expand_underlying=true -p limit=2 --envelope

# The comment lines above are what the stream printed, verbatim.
diff <(head -n 3 printed) <(sed -n 's/^# \(ev,T\.c.*\|[TQ],.*\)$/\1/p' "$self") >&2 ||
  fail "the stream printed other lines than the README shows"
grep -q '^{"count":2,"next_url":"https://127.0.0.1:[0-9]*/v1/indicators/sma/AAPL?cursor=[^"]*","request_id":"[0-9a-f]*","results":{"underlying":{"url":' printed ||
  fail "--envelope printed no page object with its underlying"

# Completion for bash (zsh: massive completion zsh).
source <(massive completion bash)

# The trades' path parameter by the name its help gives (stockTicker; another description may
# spell it otherwise, as ticker), completed from its first letters.
ticker=$("$cli" stocks trades --help | sed -n 's/^  \([^ ]*\)  string, required (in the path).*/\1/p' | head -n 1)
[ -n "$ticker" ] || fail "stocks trades --help names no path parameter"
COMP_LINE="massive stocks trades -p ${ticker:0:5}"
COMP_POINT=${#COMP_LINE} _massive
[ "${COMPREPLY[*]}" = "$ticker=" ] || fail "completion offered '${COMPREPLY[*]}' for -p ${ticker:0:5}"
echo "readme_examples: every example ran and printed what the README says"
