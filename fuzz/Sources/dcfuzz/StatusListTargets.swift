import DCCBOR
import DCStatusList

// Status List Tokens (issue 15, draft-ietf-oauth-status-list): both forms, and the zlib path
// under its cap. Each decompression is capped at 16 MiB (StatusListLimits), so a bomb costs at
// most that much and never a hang past libFuzzer's 1 s per input.

/// A Status List Token JWT (draft §5.1): header, claims, base64url `lst`, inflate, statuses.
@Sendable func fuzzStatusListJWT(_ bytes: [UInt8]) {
  _ = StatusListToken.format(of: bytes)
  guard let text = text(bytes), let token = try? StatusListToken(jwt: text) else { return }
  readEveryWay(token)
}

/// A Status List Token CWT (draft §5.2) and the referenced-token `status` claim it may be
/// (ISO 18013-5 MSO `status`, draft §6.3).
@Sendable func fuzzStatusListCWT(_ bytes: [UInt8]) {
  _ = StatusListToken.format(of: bytes)
  if let token = try? StatusListToken(cwt: bytes) { readEveryWay(token) }
  if let item = try? CBOR.decode(bytes) {
    _ = try? ReferencedStatus.mdoc(status: item)
    if let map = item.map { _ = try? ReferencedStatus.cwt(claims: map) }
  }
}

/// The zlib stream of `lst` (RFC 1950) under a 1 MiB cap; what inflates must deflate and
/// inflate back to the same bytes.
@Sendable func fuzzStatusListZlib(_ bytes: [UInt8]) {
  guard let inflated = try? Zlib.decompress(bytes, maximumSize: 1 << 20) else { return }
  guard let again = try? Zlib.compress(inflated),
    let back = try? Zlib.decompress(again, maximumSize: 1 << 20)
  else { violated("zlib could not re-compress \(inflated.count) bytes it inflated") }
  if back != inflated { violated("zlib round trip changed \(inflated.count) bytes") }
  for bits in StatusList.Bits.allCases {
    let list = StatusList(bits: bits, bytes: inflated)
    if list.count != inflated.count * 8 / bits.rawValue { violated("count for \(bits)") }
    if list.count > 0, (try? list.status(at: list.count - 1)) == nil {
      violated("the last entry of \(list.count) does not read")
    }
    if (try? list.status(at: list.count)) != nil { violated("an entry past the end reads") }
  }
}

/// Reads a token the ways a verifier and `inspect` do.
private func readEveryWay(_ token: StatusListToken) {
  let list = token.statusList
  if list.count > 0 { _ = try? list.status(at: list.count - 1) }
  _ = try? list.status(at: list.count)
  if list.count <= 1 << 16 { _ = list.counts }
  if let read = try? StatusListToken(bytes: token.encoded), read != token {
    violated("the token reads differently through init(bytes:)")
  }
}
