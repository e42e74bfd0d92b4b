#!/usr/bin/env bash
# Extracts the Swift snippets of Sources/DCWallet/DCWallet.docc/IOSProviderExtension.md into the IntegrationGuideSnippets target
# (built only with DCWALLET_APPLE_SHADOW=1), all in one file, so the guide compiles against
# the bridge and the Apple shadow SDK (issue 17). `@main` is commented out: the snippets are a
# library here, not an app. With --check, fails (exit 1) when the committed file differs from
# the guide instead of writing it; CI runs that. It also keeps the symlinks of
# DCCryptoOnCryptoKit (the CryptoKit backend's checked unit) equal to DCCrypto.
set -euo pipefail
cd "$(dirname "$0")/../.."
guide=Sources/DCWallet/DCWallet.docc/IOSProviderExtension.md
out=Tests/AppleShadow/IntegrationGuideSnippets
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

generated=IntegrationGuide.swift
{
  echo "// Generated from Sources/DCWallet/DCWallet.docc/IOSProviderExtension.md by Tests/AppleShadow/extract-guide.sh: every Swift"
  echo "// snippet, in order, in one file (later snippets use the imports of earlier ones, as the"
  echo "// guide reads). Do not edit: change the guide and run the script. Not formatted: the"
  echo "// snippets keep the guide's layout."
  echo "// swift-format-ignore-file"
  echo "import AppleShadowFoundation  // String(localized:), an Apple-only Foundation member"
  awk '
    /^```swift[[:space:]]*$/ { n++; inside = 1; print ""; print "// MARK: snippet " n; next }
    /^```[[:space:]]*$/ && inside { inside = 0; next }
    inside { sub(/^[[:space:]]*@main$/, "// @main", $0); print }
  ' "$guide"
} > "$work/$generated"

# DCCryptoOnCryptoKit is DCCrypto with the CryptoKit backend: a symlink to every
# DCCrypto source but Backend_openssl.swift, and nothing else.
links=Tests/AppleShadow/DCCryptoOnCryptoKit
expected=$(cd Sources/DCCrypto && ls *.swift | grep -vx Backend_openssl.swift)
actual=$(cd "$links" && ls *.swift)

if [ "${1:-}" = "--check" ]; then
  status=0
  if ! cmp -s "$work/$generated" "$out/$generated"; then
    echo "out of date: $out/$generated (run Tests/AppleShadow/extract-guide.sh)" >&2
    status=1
  fi
  if [ "$expected" != "$actual" ] || [ -n "$(find "$links" -xtype l)" ]; then
    echo "out of date: $links (run Tests/AppleShadow/extract-guide.sh)" >&2
    status=1
  fi
  exit $status
fi
rm -f "$links"/*.swift
for name in $expected; do ln -s "../../../Sources/DCCrypto/$name" "$links/$name"; done
cp "$work/$generated" "$out/$generated"
echo "$out/$generated"
