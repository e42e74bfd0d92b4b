#!/usr/bin/env bash
# Builds the libFuzzer targets and runs them (issue 12; README, "Fuzzing").
#
#   fuzz/run.sh --list                 the target names, one a line (no build)
#   fuzz/run.sh [TARGET|all] [SECONDS] build, then run TARGET (every target for `all` or none)
#                                      for SECONDS each (default 10); non-zero exit on a crash, a
#                                      hang (> 1 s for one input) or out-of-memory (> FUZZ_RSS_MB,
#                                      default 2048); FUZZ_ARGS adds libFuzzer flags
#   fuzz/run.sh --merge [TARGET|all]   minimise fuzz/corpus/TARGET with what runs found (-merge=1)
#
# One binary holds every target (FUZZ_TARGET picks one), so the sanitized package links once.
# New inputs go to fuzz/.build/work/TARGET, crash inputs to fuzz/.build/artifacts, logs to
# fuzz/.build/logs; the committed corpus in fuzz/corpus/TARGET is only read.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"

targets() { sed -n 's/^  FuzzTarget(name: "\([a-z0-9-]*\)".*/\1/p' Sources/dcfuzz/Fuzz.swift; }

if [ "${1:-}" = "--list" ]; then
  targets
  exit 0
fi
merge=0
if [ "${1:-}" = "--merge" ]; then
  merge=1
  shift
fi
only="${1:-}"
[ "$only" != all ] || only=""
seconds="${2:-10}"
if [ -n "$only" ] && ! targets | grep -qx -- "$only"; then
  echo "unknown target '$only'; fuzz/run.sh --list names them" >&2
  exit 2
fi

# libFuzzer without its main (SwiftPM links an executable's entry point as dcfuzz_main, which
# calls LLVMFuzzerRunDriver); coverage as -sanitize=fuzzer would instrument it.
swiftc_path="$(readlink -f "$(command -v swiftc)")"
runtime="$(ls -d "$(dirname "$swiftc_path")"/../lib/clang/*/lib/linux | head -1)"
libfuzzer="$runtime/libclang_rt.fuzzer_no_main-$(uname -m).a"
[ -f "$libfuzzer" ] || { echo "no libFuzzer runtime at $libfuzzer" >&2; exit 2; }
# Zero warnings, as in .ci/run (DCWALLET_WARNINGS_AS_ERRORS=0 turns it off for an experiment).
flags=()
if [ "${DCWALLET_WARNINGS_AS_ERRORS:-1}" = 1 ]; then
  flags=(-Xswiftc -warnings-as-errors)
fi
mkdir -p .build
echo "building the fuzz targets (release, AddressSanitizer; log in fuzz/.build/build.log)"
# dcfuzz is a target of the main package, declared only with DCWALLET_FUZZ=1 (Package.swift).
export DCWALLET_FUZZ=1
build=(swift build -c release --package-path .. --scratch-path "$here/.build" --product dcfuzz)
if ! "${build[@]}" "${flags[@]}" \
  -Xswiftc -sanitize=address \
  -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
  -Xswiftc -parse-as-library \
  -Xlinker --whole-archive -Xlinker "$libfuzzer" -Xlinker --no-whole-archive -Xlinker -lstdc++ \
  >.build/build.log 2>&1; then
  # ld.gold's "Cannot export local symbol '__asan_*'" warnings are harmless noise.
  grep -v "Cannot export local symbol" .build/build.log | tail -40 >&2
  echo "the fuzz build failed" >&2
  exit 1
fi
binary="$("${build[@]}" "${flags[@]}" --show-bin-path)/dcfuzz"
if [ "$(FUZZ_LIST=1 "$binary")" != "$(targets)" ]; then
  echo "fuzz/run.sh --list and the binary disagree on the targets" >&2
  exit 1
fi

dictionary() {
  case "$1" in
    cbor | cose-* | device-* | encrypted-response | session-* | vical | rical) echo "-dict=$here/dict/cbor.dict" ;;
    der | pem | crl) echo "-dict=$here/dict/der.dict" ;;
    *) echo "-dict=$here/dict/json.dict" ;;
  esac
}

mkdir -p .build/work .build/artifacts .build/logs
# libFuzzer reports a crash itself; Swift's backtracer would only slow it down.
export SWIFT_BACKTRACE=enable=no
status=0
for target in $(targets); do
  [ -z "$only" ] || [ "$target" = "$only" ] || continue
  mkdir -p "corpus/$target" ".build/work/$target"
  log=".build/logs/$target.log"
  if [ "$merge" = 1 ]; then
    rm -rf ".build/merged-$target" && mkdir ".build/merged-$target"
    FUZZ_TARGET="$target" "$binary" -merge=1 -timeout=1 -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
      ".build/merged-$target" "corpus/$target" ".build/work/$target" >"$log" 2>&1 || {
      echo "$target: merge failed, see fuzz/$log" >&2
      status=1
      continue
    }
    rm -rf "corpus/$target" && mv ".build/merged-$target" "corpus/$target"
    echo "$target: $(ls "corpus/$target" | wc -l) inputs in fuzz/corpus/$target"
    continue
  fi
  # Output to a file: a libFuzzer process writing to the terminal can outlive its caller.
  if FUZZ_TARGET="$target" "$binary" "$(dictionary "$target")" \
    -max_total_time="$seconds" -timeout=1 -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
    -detect_leaks=0 -print_final_stats=1 -artifact_prefix="$here/.build/artifacts/$target-" \
    ${FUZZ_ARGS:-} ".build/work/$target" "corpus/$target" >"$log" 2>&1; then
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
    coverage="$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)"
    echo "$target: ok, ${runs:-?} runs, $coverage"
  else
    echo "$target: FAILED, see fuzz/$log; input in fuzz/.build/artifacts/$target-*" >&2
    grep -E "^==[0-9]+==ERROR|^SUMMARY|invariant violated|Fatal error|ALARM|out-of-memory" "$log" | head -5 >&2 || true
    status=1
  fi
done
exit "$status"
