package import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An IPv4 or IPv6 address: where a server listens, a client it counts connections for, or a
/// reverse proxy it trusts. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is its IPv4 address.
package struct IPAddress: Sendable, Hashable, CustomStringConvertible {
  /// The address in network byte order: 4 bytes (IPv4) or 16 (IPv6).
  package let bytes: [UInt8]

  /// An address from its 4 or 16 bytes; nil for any other length.
  package init?(bytes: [UInt8]) {
    if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF,
      bytes[11] == 0xFF
    {
      self.bytes = Array(bytes[12...])
    } else if bytes.count == 4 || bytes.count == 16 {
      self.bytes = bytes
    } else {
      return nil
    }
  }

  /// An address in its numeric text form (`127.0.0.1`, `::1`; `inet_pton`), nil otherwise. No
  /// name is resolved.
  package init?(numeric text: String) {
    var v4 = in_addr()
    var v6 = in6_addr()
    if inet_pton(AF_INET, text, &v4) == 1 {
      self.init(bytes: withUnsafeBytes(of: &v4) { Array($0) })
    } else if inet_pton(AF_INET6, text, &v6) == 1 {
      self.init(bytes: withUnsafeBytes(of: &v6) { Array($0) })
    } else {
      return nil
    }
  }

  /// 127.0.0.1.
  package static let loopbackIPv4 = IPAddress(unchecked: [127, 0, 0, 1])
  /// ::1.
  package static let loopbackIPv6 = IPAddress(unchecked: Array(repeating: 0, count: 15) + [1])

  private init(unchecked bytes: [UInt8]) { self.bytes = bytes }

  /// Whether this is an IPv6 address.
  package var isIPv6: Bool { bytes.count == 16 }

  /// Whether the address is in 127.0.0.0/8 or is ::1.
  package var isLoopback: Bool { isIPv6 ? self == .loopbackIPv6 : bytes[0] == 127 }

  /// The numeric text form (`inet_ntop`).
  package var description: String {
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    let written = bytes.withUnsafeBytes { raw in
      inet_ntop(
        isIPv6 ? AF_INET6 : AF_INET, raw.baseAddress, &buffer, socklen_t(buffer.count))
    }
    guard written != nil else { return "?" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The address of a `sockaddr_in` or `sockaddr_in6`; nil for another family.
  init?(socketAddress: UnsafePointer<sockaddr>) {
    switch Int32(socketAddress.pointee.sa_family) {
    case AF_INET:
      var address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
        $0.pointee.sin_addr
      }
      self.init(bytes: withUnsafeBytes(of: &address) { Array($0) })
    case AF_INET6:
      var address = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
        $0.pointee.sin6_addr
      }
      self.init(bytes: withUnsafeBytes(of: &address) { Array($0) })
    default:
      return nil
    }
  }
}

/// An HTTP(S) origin (RFC 6454 §4): scheme, host and port. A server answers for one: its public
/// URL's.
package struct HTTPOrigin: Sendable, Hashable, CustomStringConvertible {
  /// `http` or `https`.
  package let scheme: String
  /// The host, lower case; an IPv6 address in brackets.
  package let host: String
  /// The port; the scheme's default (80, 443) when the URL names none.
  package let port: UInt16

  /// The origin of an `http` or `https` URL with a host; nil for any other URL, or one with
  /// user information.
  package init?(url: URL) {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.percentEncodedHost, !host.isEmpty,
      components.user == nil, components.password == nil
    else { return nil }
    let port = components.port ?? (scheme == "https" ? 443 : 80)
    guard let port = UInt16(exactly: port) else { return nil }
    self.init(scheme: scheme, authority: (host.lowercased(), port))
  }

  /// The origin `scheme://` + `authority` (a `Host` header value, RFC 9110 §7.2); nil when the
  /// authority does not parse.
  init?(scheme: String, authority text: String) {
    guard let authority = Self.authority(text, scheme: scheme) else { return nil }
    self.init(scheme: scheme, authority: authority)
  }

  private init(scheme: String, authority: (host: String, port: UInt16)) {
    self.scheme = scheme
    let host = authority.host
    self.host = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    self.port = authority.port
  }

  /// The origin an `Origin` header value names (RFC 6454 §7: `scheme://host[:port]`); nil for
  /// `null` and anything else.
  init?(serialized text: String) {
    let parts = text.split(separator: "://", maxSplits: 1).map(String.init)
    guard parts.count == 2, parts[0] == "http" || parts[0] == "https" else { return nil }
    self.init(scheme: parts[0], authority: parts[1])
  }

  /// `host[:port]` (RFC 9110 §4.2.3: no userinfo, a port only when not the default).
  /// `[v6]:port` keeps its brackets.
  static func authority(_ text: String, scheme: String) -> (host: String, port: UInt16)? {
    let text = text.lowercased()
    let defaultPort: UInt16 = scheme == "https" ? 443 : 80
    let host: Substring
    let portText: Substring?
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      host = text[...close]
      let rest = text[text.index(after: close)...]
      guard rest.isEmpty || rest.hasPrefix(":") else { return nil }
      portText = rest.isEmpty ? nil : rest.dropFirst()
    } else if let colon = text.lastIndex(of: ":") {
      host = text[..<colon]
      portText = text[text.index(after: colon)...]
    } else {
      host = text[...]
      portText = nil
    }
    let hostAllowed = host.utf8.allSatisfy {
      (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "@")
    }
    guard !host.isEmpty, hostAllowed else { return nil }
    guard let portText else { return (String(host), defaultPort) }
    guard !portText.isEmpty, portText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
      let port = UInt16(portText)
    else { return nil }
    return (String(host), port)
  }

  /// `scheme://host[:port]`, the port left out when it is the scheme's default.
  package var description: String {
    let defaultPort: UInt16 = scheme == "https" ? 443 : 80
    return "\(scheme)://\(host)" + (port == defaultPort ? "" : ":\(port)")
  }
}
