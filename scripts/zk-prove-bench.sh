#!/usr/bin/env bash
# Longfellow mdoc proving, Swift against Google's C++ library on the same input and machine, in
# one run (issue 33, the holder; docs/PERFORMANCE.md). Runs the C++ oracle's prover (`lfzk prove`:
# reads the circuit, fills the witness from the mdoc, proves; median of 3 under GNU time, with
# its peak memory) on the committed 1-attribute statement when it is present at $ZK_ORACLE_LFZK,
# then `dcbench zk-prove` (release) with the witness upstream filled for the same mdoc
# (Vectors/longfellow/witness-fixed-keys.wit.zst). DCBENCH_CPUTIME=1 times both by CPU time.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=Tests/DCZKTests/Vectors/longfellow
lfzk="${ZK_ORACLE_LFZK:-/tmp/dc-zk-oracle/lfzk}"
runs=3
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
zstd -dqf "$dir/witness-fixed-keys.wit.zst" -o "$work/witness.wit"
export DCBENCH_ZK_WITNESS="$work/witness.wit"

if [ -x "$lfzk" ] && [ -x /usr/bin/time ]; then
  python3 - "$dir/vectors.json" "$work" >"$work/args" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
s = v['statement']
d = sys.argv[1].rsplit('/', 1)[0]
open(f'{sys.argv[2]}/transcript.cbor', 'wb').write(bytes.fromhex(s['sessionTranscript']))
attrs = ' '.join(f"{s['nameSpace']} {a['identifier']} {a['cborValue']}" for a in s['attributes'])
print(f"{d}/mdoc.cbor 0x{s['issuerX']} 0x{s['issuerY']} {sys.argv[2]}/transcript.cbor {s['now']} "
      f"{sys.argv[2]}/cpp.proof {attrs}")
PY
  read -r -a args <"$work/args"
  for i in $(seq "$runs"); do
    /usr/bin/time -f "%e %M %U %S" -o "$work/time.$i" \
      "$lfzk" prove "$dir/circuit-1attr-v7.zst" "${args[@]}" >/dev/null 2>&1
  done
  if [ "${DCBENCH_CPUTIME:-}" = 1 ]; then
    cpp="$(awk '{ print $3 + $4 }' "$work"/time.* | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2)')"
  else
    cpp="$(awk '{ print $1 }' "$work"/time.* | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2)')"
  fi
  peak="$(cat "$work"/time.* | awk 'max < $2 { max = $2 } END { print max }')"
  echo "C++ lfzk prove: median ${cpp} s of $runs runs, peak RSS ${peak} KB, proof $(stat -c %s "$work/cpp.proof") B"
  export DCBENCH_ZK_PROVE_CPP_SECONDS="$cpp"
else
  echo "no C++ oracle at $lfzk (or no /usr/bin/time): Swift figures only"
fi
swift build -c release --product dcbench >/dev/null
bin="$(swift build -c release --show-bin-path)"
/usr/bin/time -f "dcbench zk-prove peak RSS %M KB (whole process, circuit read included)" "$bin/dcbench" zk-prove
