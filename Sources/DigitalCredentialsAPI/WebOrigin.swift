import Foundation

/// A web origin in its ASCII serialization (WHATWG HTML §7.5 "serialization of an origin"):
/// `scheme://host[:port]` with no path, query, fragment or credentials.
///
/// The platform hands the wallet the caller's origin; this type accepts only what an origin
/// serialization can be, normalising a single trailing slash and letter case, and dropping a
/// default port.
public struct WebOrigin: Sendable, Hashable, CustomStringConvertible {
  /// The serialized origin, such as `https://verifier.example` or `https://localhost:8443`.
  public let serialized: String

  /// Parses and normalises an origin.
  ///
  /// - Throws: `invalidOrigin` for anything with a path, query, fragment, credentials, a
  ///   non-http(s) scheme, an empty or malformed host, or a bad port.
  public init(_ text: String) throws(DigitalCredentialsError) {
    func fail(_ why: String) -> DigitalCredentialsError {
      DigitalCredentialsError(.invalidOrigin, "\"\(text)\" is not a web origin: \(why)")
    }
    var rest = Substring(text)
    guard let schemeEnd = rest.range(of: "://") else { throw fail("no scheme") }
    let scheme = rest[..<schemeEnd.lowerBound].lowercased()
    guard scheme == "https" || scheme == "http" else { throw fail("scheme must be https or http") }
    rest = rest[schemeEnd.upperBound...]
    if rest.hasSuffix("/") { rest = rest.dropLast() }
    guard !rest.isEmpty else { throw fail("no host") }
    guard !rest.contains(where: { "/?#@\\ ".contains($0) }) else {
      throw fail("an origin has no path, query, fragment or credentials")
    }
    var host = rest
    var port: Int?
    if rest.hasPrefix("[") {
      // IPv6 literal: [....](:port)?
      guard let close = rest.firstIndex(of: "]") else { throw fail("unclosed IPv6 literal") }
      host = rest[...close]
      let after = rest[rest.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":"), let p = Int(after.dropFirst()) else { throw fail("bad port") }
        port = p
      }
    } else if let colon = rest.lastIndex(of: ":") {
      host = rest[..<colon]
      guard let p = Int(rest[rest.index(after: colon)...]) else { throw fail("bad port") }
      port = p
    }
    guard !host.isEmpty else { throw fail("empty host") }
    if let p = port, !(1...65535).contains(p) { throw fail("port out of range") }
    let hostAllowed = host.allSatisfy {
      $0.isASCII && ($0.isLetter || $0.isNumber || "-.[]:".contains($0))
    }
    guard hostAllowed, !host.hasPrefix("."), !host.hasSuffix(".."), !host.contains("..") else {
      throw fail("host has characters a serialized origin cannot have")
    }
    let defaultPort = scheme == "https" ? 443 : 80
    var serialized = "\(scheme)://\(host.lowercased())"
    if let p = port, p != defaultPort { serialized += ":\(p)" }
    self.serialized = serialized
  }

  public var description: String { serialized }
}
