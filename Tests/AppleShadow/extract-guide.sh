#!/usr/bin/env bash
# Extracts the Swift snippets of docs/ios-integration.md into the IntegrationGuideSnippets target
# (built only with DCWALLET_APPLE_SHADOW=1), all in one file, so the guide compiles against
# the bridge and the Apple shadow SDK (issue 17). `@main` is commented out: the snippets are a
# library here, not an app. With --check, fails (exit 1) when the committed file differs from
# the guide instead of writing it; CI runs that.
set -euo pipefail
cd "$(dirname "$0")/../.."
guide=docs/ios-integration.md
out=Tests/AppleShadow/IntegrationGuideSnippets
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

generated=IntegrationGuide.swift
{
  echo "// Generated from docs/ios-integration.md by Tests/AppleShadow/extract-guide.sh: every Swift"
  echo "// snippet, in order, in one file (later snippets use the imports of earlier ones, as the"
  echo "// guide reads). Do not edit: change the guide and run the script."
  echo "import AppleShadowFoundation  // String(localized:), an Apple-only Foundation member"
  awk '
    /^```swift[[:space:]]*$/ { n++; inside = 1; print ""; print "// MARK: snippet " n; next }
    /^```[[:space:]]*$/ && inside { inside = 0; next }
    inside { sub(/^@main$/, "// @main", $0); print }
  ' "$guide"
} > "$work/$generated"

if [ "${1:-}" = "--check" ]; then
  if ! cmp -s "$work/$generated" "$out/$generated"; then
    echo "out of date: $out/$generated (run Tests/AppleShadow/extract-guide.sh)" >&2
    exit 1
  fi
  exit 0
fi
cp "$work/$generated" "$out/$generated"
echo "$out/$generated"
