import DCErrors
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
    // ASCII text (every origin a platform hands over) is read byte by byte; other text takes
    // the general path below, which treats it as characters. Both decide alike.
    if let serialized = try Self.serializeASCII(text, fail) {
      self.serialized = serialized
      return
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
    let (host, port) = try Self.hostAndPort(rest, fail)
    guard !host.isEmpty else { throw fail("empty host") }
    try Self.checkHost(host, fail)
    let defaultPort = scheme == "https" ? 443 : 80
    var serialized = "\(scheme)://\(host.lowercased())"
    if let p = port, p != defaultPort { serialized += ":\(p)" }
    self.serialized = serialized
  }

  public var description: String { serialized }

  /// The checks of ``init(_:)`` over the bytes of ASCII text, where bytes and characters are
  /// the same; nil when the text is not ASCII. The same refusals, in the same order.
  private static func serializeASCII(
    _ text: String, _ fail: (String) -> DigitalCredentialsError
  ) throws(DigitalCredentialsError) -> String? {
    let bytes = Array(text.utf8)
    guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
    func lowercased(_ range: Range<Int>) -> String {
      String(
        decoding: bytes[range].lazy.map {
          $0 >= byte("A") && $0 <= byte("Z") ? $0 + 0x20 : $0
        }, as: UTF8.self)
    }
    // The first "://".
    var colon = 0
    while colon + 2 < bytes.count
      && !(bytes[colon] == byte(":") && bytes[colon + 1] == byte("/")
        && bytes[colon + 2] == byte("/"))
    {
      colon += 1
    }
    guard colon + 2 < bytes.count else { throw fail("no scheme") }
    let scheme = lowercased(0..<colon)
    guard scheme == "https" || scheme == "http" else {
      throw fail("scheme must be https or http")
    }
    var end = bytes.count
    let start = colon + 3
    if end > start, bytes[end - 1] == byte("/") { end -= 1 }
    guard end > start else { throw fail("no host") }
    for b in bytes[start..<end] {
      switch b {
      case byte("/"), byte("?"), byte("#"), byte("@"), byte("\\"), byte(" "):
        throw fail("an origin has no path, query, fragment or credentials")
      default: continue
      }
    }
    let (hostEnd, portRange) = try asciiHostAndPort(bytes, start..<end, fail)
    let port = try portRange.map { (range) throws(DigitalCredentialsError) in
      try Self.port(Substring(String(decoding: bytes[range], as: UTF8.self)), fail)
    }
    guard hostEnd > start else { throw fail("empty host") }
    try checkASCIIHost(bytes[start..<hostEnd], fail)
    let defaultPort = scheme == "https" ? 443 : 80
    var serialized = scheme + "://" + lowercased(start..<hostEnd)
    if let p = port, p != defaultPort { serialized += ":\(p)" }
    return serialized
  }

  /// The host and port of `authority` (`host[:port]` or `[IPv6][:port]`).
  private static func hostAndPort(
    _ rest: Substring, _ fail: (String) -> DigitalCredentialsError
  ) throws(DigitalCredentialsError) -> (Substring, Int?) {
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
    return (host, port)
  }

  /// A host of ASCII letters, digits and `-.[]:` only, with no leading dot and no empty label.
  private static func checkHost(
    _ host: Substring, _ fail: (String) -> DigitalCredentialsError
  ) throws(DigitalCredentialsError) {
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
  }

  /// The byte of an ASCII scalar.
  private static func byte(_ ascii: Unicode.Scalar) -> UInt8 { UInt8(ascii: ascii) }

  /// Where the host of `bytes[authority]` ends, and the range of its port when there is one.
  private static func asciiHostAndPort(
    _ bytes: [UInt8], _ authority: Range<Int>, _ fail: (String) -> DigitalCredentialsError
  ) throws(DigitalCredentialsError) -> (Int, Range<Int>?) {
    let (start, end) = (authority.lowerBound, authority.upperBound)
    var hostEnd = end
    var portRange: Range<Int>?
    if bytes[start] == byte("[") {
      // IPv6 literal: [....](:port)?
      guard let close = bytes[start..<end].firstIndex(of: byte("]")) else {
        throw fail("unclosed IPv6 literal")
      }
      hostEnd = close + 1
      if hostEnd < end {
        guard bytes[hostEnd] == byte(":") else { throw fail("bad port") }
        portRange = (hostEnd + 1)..<end
      }
    } else if let portColon = bytes[start..<end].lastIndex(of: byte(":")) {
      hostEnd = portColon
      portRange = (portColon + 1)..<end
    }
    return (hostEnd, portRange)
  }

  /// ``checkHost(_:_:)`` over ASCII bytes.
  private static func checkASCIIHost(
    _ host: ArraySlice<UInt8>, _ fail: (String) -> DigitalCredentialsError
  ) throws(DigitalCredentialsError) {
    // ASCII letters, digits and "-.[]:" only, no leading dot and no empty label.
    var previous: UInt8 = 0
    for (offset, b) in host.enumerated() {
      let allowed: Bool
      switch b {
      case byte("a")...byte("z"), byte("A")...byte("Z"), byte("0")...byte("9"), byte("-"),
        byte("["), byte("]"), byte(":"):
        allowed = true
      case byte("."):
        allowed = offset > 0 && previous != byte(".")
      default:
        allowed = false
      }
      guard allowed else { throw fail("host has characters a serialized origin cannot have") }
      previous = b
    }
  }

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
