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
  ///   non-http(s) scheme, an empty or malformed host, or a port that is empty, signed, has a
  ///   leading zero or lies outside 1...65535.
  public init(_ text: String) throws(DigitalCredentialsError) {
    func fail(_ why: String) -> DigitalCredentialsError {
      DigitalCredentialsError(.invalidOrigin, "\"\(text)\" is not a web origin: \(why)")
    }
    var rest = Substring(text)
    // The first "://", found in the UTF-8 bytes (without Foundation's string search).
    let utf8 = rest.utf8
    guard
      let colon = utf8.indices.first(where: {
        utf8[$0] == UInt8(ascii: ":") && utf8[$0...].starts(with: "://".utf8)
      })
    else { throw fail("no scheme") }
    let scheme = rest[..<colon].lowercased()
    guard scheme == "https" || scheme == "http" else { throw fail("scheme must be https or http") }
    rest = rest[utf8.index(colon, offsetBy: 3)...]
    if rest.hasSuffix("/") { rest = rest.dropLast() }
    guard !rest.isEmpty else { throw fail("no host") }
    guard
      !rest.utf8.contains(where: {
        switch $0 {
        case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "@"),
          UInt8(ascii: "\\"), UInt8(ascii: " "):
          true
        default: false
        }
      })
    else {
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
        guard after.hasPrefix(":") else { throw fail("bad port") }
        port = try Self.port(after.dropFirst(), fail)
      }
    } else if let colon = rest.lastIndex(of: ":") {
      host = rest[..<colon]
      port = try Self.port(rest[rest.index(after: colon)...], fail)
    }
    guard !host.isEmpty else { throw fail("empty host") }
    // ASCII letters, digits and "-.[]:" only, checked byte by byte.
    let hostAllowed = host.utf8.allSatisfy {
      switch $0 {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ":"):
        true
      default: false
      }
    }
    // The host is ASCII from here on, so its bytes are its characters.
    let dots = host.utf8
    guard hostAllowed, dots.first != UInt8(ascii: "."),
      !zip(dots, dots.dropFirst()).contains(where: {
        $0 == UInt8(ascii: ".") && $1 == UInt8(ascii: ".")
      })
    else {
      throw fail("host has characters a serialized origin cannot have")
    }
    let defaultPort = scheme == "https" ? 443 : 80
    var serialized = "\(scheme)://\(host.lowercased())"
    if let p = port, p != defaultPort { serialized += ":\(p)" }
    self.serialized = serialized
  }

  public var description: String { serialized }

  /// A port as an origin serialization writes it (WHATWG URL §4.4 "port state", §4.5 URL
  /// serializing): ASCII digits only (no sign, space or empty port), no leading zero, and a
  /// value up to 65535. Port 0 is refused too: nothing can be served from it, so no platform
  /// asserts it.
  private static func port(
    _ text: Substring, _ fail: (String) -> DigitalCredentialsError
  ) throws(DigitalCredentialsError) -> Int {
    guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
      throw fail("a port is one or more ASCII digits")
    }
    guard text.first != "0" else { throw fail("a serialized port has no leading zero") }
    // At most five digits, so the value cannot overflow before the range check.
    guard text.utf8.count <= 5, let value = Int(text), value <= 65535 else {
      throw fail("port out of range")
    }
    return value
  }
}
