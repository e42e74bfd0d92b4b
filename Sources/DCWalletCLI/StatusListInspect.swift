import DCEncoding
import DCJSON
import DCStatusList
import DCX509
import Foundation

/// `dcwallet inspect` on a Status List Token (issue 15): the JWT (compact text) or the CWT
/// (COSE_Sign1 bytes, or their hex or base64url text). Nothing is verified: no key or anchor
/// is needed. `--json` prints every entry; plain output lists a short list's entries and
/// summarises a long one by its counts.
enum StatusListInspect {
  /// The token bytes and form when `bytes` are a Status List Token (by its header), as given or
  /// as hex or base64url text; nil otherwise.
  static func detect(_ bytes: [UInt8]) -> (bytes: [UInt8], format: StatusListToken.Format)? {
    if let format = StatusListToken.format(of: bytes) { return (bytes, format) }
    let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(
      in: .whitespacesAndNewlines)
    guard !text.isEmpty, !text.contains(".") else { return nil }
    for decoded in [try? Hex.decode(text), try? Base64URL.decode(text)] {
      if let decoded, let format = StatusListToken.format(of: decoded) {
        return (decoded, format)
      }
    }
    return nil
  }

  /// Reads the token, or fails with a sentence (a bomb names the cap).
  static func read(_ bytes: [UInt8]) throws -> StatusListToken {
    do {
      return try StatusListToken(bytes: bytes)
    } catch {
      if error.code == .tooLarge {
        throw CommandFailure(
          "the status list token is refused: \(error.reason); the cap is "
            + "\(StatusListLimits.maximumDecompressedSize >> 20) MiB decompressed and "
            + "\(StatusListLimits.maximumTokenSize >> 20) MiB for the token (see docs/LIMITS.md)")
      }
      throw CommandFailure("the status list token cannot be read: \(error.reason)")
    }
  }

  /// The issue's contract word for a status: "valid", "invalid", "suspended", or the number.
  static func word(_ status: Status) -> String {
    switch status {
    case .valid: "valid"
    case .invalid: "invalid"
    case .suspended: "suspended"
    case .applicationSpecific(let value): "\(value)"
    }
  }

  /// `inspect --json`: one object; `statuses` has one member per entry, in index order.
  static func json(_ token: StatusListToken) -> [UInt8] {
    var header: [(key: String, value: JSONValue)] = [
      ("type", "status_list_token"), ("format", .string(token.format.rawValue)),
      ("sub", .string(token.subject)),
    ]
    if let issuer = token.issuer { header.append(("iss", .string(issuer))) }
    header.append(("iat", .integer(Int64(token.issuedAt.timeIntervalSince1970))))
    if let exp = token.expiresAt {
      header.append(("exp", .integer(Int64(exp.timeIntervalSince1970))))
    }
    if let ttl = token.timeToLive { header.append(("ttl", .integer(Int64(ttl)))) }
    if let aggregation = token.aggregationURI {
      header.append(("aggregation_uri", .string(aggregation)))
    }
    header.append(("bits", .integer(Int64(token.statusList.bits.rawValue))))
    header.append(("size", .integer(Int64(token.statusList.count))))
    header.append(("verified", false))
    // The object without its closing brace, then the statuses written directly: a list has up
    // to 134 million entries, too many to build as JSON values first.
    var out = JSONValue.object(header).serializedBytes()
    out.removeLast()
    out += Array(#","statuses":["#.utf8)
    let list = token.statusList
    let words: [[UInt8]] = (0...255).map { raw in
      let word = Self.word(Status(rawValue: UInt8(raw)))
      return Array((raw <= 2 ? "\"\(word)\"" : word).utf8)
    }
    out.reserveCapacity(out.count + list.count * 8)
    for index in 0..<list.count {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      out += words[Int((try? list.status(at: index))?.rawValue ?? 0)]
    }
    out += Array("]}\n".utf8)
    return out
  }

  /// Plain output: the claims, the list's shape and the count of each status.
  static func summary(_ token: StatusListToken) -> [String] {
    let list = token.statusList
    var lines = [
      "Status List Token (\(token.format == .jwt ? "JWT, statuslist+jwt" : "CWT, application/statuslist+cwt")); not verified",
      "  sub: \(token.subject)",
    ]
    if let issuer = token.issuer { lines.append("  iss: \(issuer)") }
    lines.append("  iat: " + Timestamp.withEpoch(token.issuedAt))
    lines.append("  exp: " + (token.expiresAt.map(Timestamp.withEpoch) ?? "none"))
    lines.append("  ttl: " + (token.timeToLive.map { "\($0) s" } ?? "none"))
    if let aggregation = token.aggregationURI { lines.append("  aggregation_uri: \(aggregation)") }
    lines.append(
      "  list: \(list.count) entries of \(list.bits.rawValue) bit(s), \(list.bytes.count) bytes "
        + "decompressed, token \(token.encoded.count) bytes")
    if let leaf = token.certificateChain.first.flatMap({ try? Certificate(derEncoded: $0) }) {
      lines.append(
        "  signed by: \(leaf.subject) (\(token.certificateChain.count) certificate(s), not verified)"
      )
    } else {
      lines.append("  signed by: no certificate chain in the token")
    }
    let counts = list.counts.sorted { $0.key < $1.key }.map {
      "\(word(Status(rawValue: $0.key))) \($0.value)"
    }
    lines.append("  statuses: " + counts.joined(separator: ", "))
    return lines + entries(list)
  }

  /// The most entries plain output lists one by one; a longer list is summarised by its counts.
  static let listedEntries = 64

  /// Plain output's entries, `index: status` one per line, for a list of up to ``listedEntries``.
  static func entries(_ list: StatusList) -> [String] {
    guard list.count <= listedEntries else {
      return ["  entries: \(list.count), too many to list (--json lists every one)"]
    }
    return ["  entries:"]
      + (0..<list.count).map { index in
        "    \(index): " + ((try? list.status(at: index)).map(word) ?? "?")
      }
  }
}
