#!/usr/bin/env bash
# Regenerates Tests/DCZKTests/Vectors/longfellow/ (issue 33) with Google's longfellow-zk as the
# test oracle. Manual: CI never runs this. Everything upstream is fetched and built OUTSIDE the
# project, in $ZK_ORACLE_DIR (default /tmp/dc-zk-oracle); nothing of it is linked or copied in.
#
# Needs: Debian packages build-essential clang cmake libssl-dev libzstd-dev libgtest-dev
# libbenchmark-dev zlib1g-dev python3-venv git; the command-line wrapper over
# lib/circuits/mdoc/mdoc_zk.h described in the vectors' PROVENANCE.md, at $ZK_ORACLE_WRAPPER
# (default $ZK_ORACLE_DIR/wrapper/lfzk.cc; it is not part of this repository).
# Optional: ZK_UPSTREAM_DIR, an existing longfellow-zk working copy to use instead of cloning
# (it must be at the pinned commit); ZK_ORACLE_JOBS (default 1) for make.
#
# Steps: clone + check out the pinned commit; cmake + make mdoc_static with Debian's clang; build
# the wrapper; make two development issuers with this SDK (`dcwallet dev files`); wrap the mDL
# in a DeviceResponse (device-response.py); generate the 1-attribute circuit if the committed one
# is missing; prove; check every case with the C++ verifier (make-vectors.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO="$PWD"
COMMIT=8aeca544fd6e7dc5b97b15b01ffd54602bd3492a
ORACLE="${ZK_ORACLE_DIR:-/tmp/dc-zk-oracle}"
WRAPPER="${ZK_ORACLE_WRAPPER:-$ORACLE/wrapper/lfzk.cc}"
OUT="$REPO/Tests/DCZKTests/Vectors/longfellow"
export CC=/usr/bin/clang CXX=/usr/bin/clang++
mkdir -p "$ORACLE" "$OUT"

upstream="${ZK_UPSTREAM_DIR:-$ORACLE/longfellow-zk}"
if [ ! -d "$upstream/.git" ]; then
  git clone -q https://github.com/google/longfellow-zk "$upstream"
  git -C "$upstream" checkout -q "$COMMIT"
fi
if [ "$(git -C "$upstream" rev-parse HEAD)" != "$COMMIT" ]; then
  echo "$upstream is not at $COMMIT" >&2
  exit 1
fi

if [ ! -f "$ORACLE/build/circuits/mdoc/libmdoc_static.a" ]; then
  cmake -D CMAKE_BUILD_TYPE=Release -S "$upstream/lib" -B "$ORACLE/build" >/dev/null
  make -C "$ORACLE/build" -j"${ZK_ORACLE_JOBS:-1}" mdoc_static >/dev/null
fi
if [ ! -f "$WRAPPER" ]; then
  echo "no wrapper at $WRAPPER: write it as PROVENANCE.md describes" >&2
  exit 1
fi
"$CXX" -std=c++17 -O2 -mpclmul -I"$upstream/lib" "$WRAPPER" \
  "$ORACLE/build/circuits/mdoc/libmdoc_static.a" -lcrypto -lzstd -o "$ORACLE/lfzk"

if [ ! -x "$ORACLE/venv/bin/python" ]; then
  python3 -m venv "$ORACLE/venv"
fi
"$ORACLE/venv/bin/pip" install -q --disable-pip-version-check \
  "$(grep '^cbor2==' Tests/Interop/requirements.txt)" \
  "$(grep '^cryptography==' Tests/Interop/requirements.txt)"

swift build --product dcwallet >/dev/null
dcwallet="$(swift build --show-bin-path)/dcwallet"
work="$ORACLE/work"
rm -rf "$work" && mkdir -p "$work"
echo "$COMMIT" >"$work/upstream-commit"
"$dcwallet" dev files --out "$work/files-a" >/dev/null
"$dcwallet" dev files --out "$work/files-b" >/dev/null
py="$ORACLE/venv/bin/python"
"$py" scripts/zk-oracle/device-response.py "$work/files-a" nonce-a "$work/issuer-a"
"$py" scripts/zk-oracle/device-response.py "$work/files-a" nonce-b "$work/session-b"
"$py" scripts/zk-oracle/device-response.py "$work/files-b" nonce-a "$work/issuer-b"

# The committed circuit is kept while its id is the one upstream lists (the compressed bytes
# depend on the zstd version, the id does not).
if [ ! -f "$OUT/circuit-1attr-v7.zst" ]; then
  "$ORACLE/lfzk" gen 1 "$OUT/circuit-1attr-v7.zst"
fi

# `dcwallet dev files` makes the mDL valid from a day ago for 90 days.
now="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
late="$(date -u -d '+120 days' +%Y-%m-%dT%H:%M:%SZ)"
early="$(date -u -d '-2 days' +%Y-%m-%dT%H:%M:%SZ)"
"$py" scripts/zk-oracle/make-vectors.py "$ORACLE/lfzk" "$work" "$OUT" "$now" "$late" "$early"
cp "$work/issuer-a/mdoc.cbor" "$OUT/mdoc.cbor"
echo "vectors written to $OUT"
