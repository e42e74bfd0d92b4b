#!/usr/bin/env bash
# Longfellow verification, Swift against Google's C++ library on the same proof and machine, in
# one run (issue 33; docs/PERFORMANCE.md). Runs the C++ oracle's verifier on the committed
# 1-attribute proof (median of 5 runs under GNU time, with its peak memory) when it is present
# at $ZK_ORACLE_LFZK (default /tmp/dc-zk-oracle/lfzk: scripts/zk-oracle/regen-vectors.sh builds
# it), then `dcbench zk` (release) on the same files, which prints the Swift times and the ratio.
# DCBENCH_CPUTIME=1 times both sides by process CPU time (for a machine other work shares).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=Tests/DCZKTests/Vectors/longfellow
lfzk="${ZK_ORACLE_LFZK:-/tmp/dc-zk-oracle/lfzk}"
runs=5

if [ -x "$lfzk" ] && [ -x /usr/bin/time ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  python3 - "$dir/vectors.json" "$work" >"$work/args" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
s = v['statement']
open(f'{sys.argv[2]}/transcript.cbor', 'wb').write(bytes.fromhex(s['sessionTranscript']))
attrs = ' '.join(f"{s['nameSpace']} {a['identifier']} {a['cborValue']}" for a in s['attributes'])
print(f"0x{s['issuerX']} 0x{s['issuerY']} {sys.argv[2]}/transcript.cbor {s['now']} "
      f"{sys.argv[1].rsplit('/', 1)[0]}/proof-valid.bin {s['docType']} {attrs}")
PY
  read -r -a args <"$work/args"
  for i in $(seq "$runs"); do
    /usr/bin/time -f "%e %M %U %S" -o "$work/time.$i" \
      "$lfzk" verify "$dir/circuit-1attr-v7.zst" "${args[@]}" >/dev/null 2>&1
  done
  # Wall clock, or user + system CPU time with DCBENCH_CPUTIME=1 (as dcbench then times).
  if [ "${DCBENCH_CPUTIME:-}" = 1 ]; then
    cpp="$(awk '{ print $3 + $4 }' "$work"/time.* | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2)')"
  else
    cpp="$(awk '{ print $1 }' "$work"/time.* | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2)')"
  fi
  peak="$(cat "$work"/time.* | awk 'max < $2 { max = $2 } END { print max }')"
  echo "C++ run_mdoc_verifier: median ${cpp} s of $runs runs, peak RSS ${peak} KB"
  export DCBENCH_ZK_CPP_SECONDS="$cpp"
else
  echo "no C++ oracle at $lfzk (or no /usr/bin/time): Swift figures only"
fi
swift build -c release --product dcbench >/dev/null
bin="$(swift build -c release --show-bin-path)"
/usr/bin/time -f "dcbench zk peak RSS %M KB" "$bin/dcbench" zk
