import DCErrors
package import Foundation

/// Which request URLs an ``HTTPClient`` may send to.
///
/// `https` only by default, as OpenID4VCI 1.0 (§12.2.1, §12.2.4), RFC 8414 §2 and RFC 9126 require
/// for every endpoint. ``development`` also admits plain `http` to a loopback host (`localhost`,
/// an IPv4 address in 127.0.0.0/8, `::1`), for a development server on 127.0.0.1; it is never the
/// default. Any other scheme (`file`, `ftp`, `data`, ...) is refused.
public struct HTTPURLPolicy: Sendable, Hashable {
  /// Whether `http://` URLs whose host is a loopback address are allowed.
  public var allowsLoopbackHTTP: Bool

  /// Creates a policy.
  public init(allowsLoopbackHTTP: Bool = false) { self.allowsLoopbackHTTP = allowsLoopbackHTTP }

  /// `https` only: what the specifications require.
  public static let standard = HTTPURLPolicy()
  /// `https`, and `http` to loopback hosts: for development servers on 127.0.0.1.
  public static let development = HTTPURLPolicy(allowsLoopbackHTTP: true)

  /// Checks that `url` is absolute, has a host, and uses a scheme this policy allows.
  ///
  /// - Throws: ``HTTPErrorCode/urlNotAllowed`` naming what is wrong.
  package func check(_ url: URL) throws(HTTPError) {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let host = components.host, !host.isEmpty
    else {
      throw HTTPError(.urlNotAllowed, "the URL is not absolute with a host")
    }
    switch components.scheme?.lowercased() {
    case "https": return
    case "http" where allowsLoopbackHTTP && Self.isLoopbackHost(host): return
    case "http":
      throw HTTPError(
        .urlNotAllowed,
        Self.isLoopbackHost(host)
          ? "plain http to a loopback host needs the development policy"
          : "plain http is allowed only to loopback hosts (127.0.0.0/8, ::1, localhost)")
    default:
      throw HTTPError(.urlNotAllowed, "the URL's scheme is neither https nor http")
    }
  }

  /// Whether `host` names the loopback interface: `localhost` (RFC 6761 §6.3), a dotted-quad
  /// IPv4 address in 127.0.0.0/8 (RFC 1122 §3.2.1.3) or `::1` (RFC 4291 §2.5.3), with or without
  /// brackets.
  ///
  /// Only the canonical spellings count: `127.1`, octal or hexadecimal octets, `localhost.` and
  /// `::ffff:127.0.0.1` are not loopback here, so a resolver's lenient reading cannot widen it.
  package static func isLoopbackHost(_ host: String) -> Bool {
    let host = host.lowercased()
    if host == "localhost" || host == "::1" || host == "[::1]" { return true }
    let octets = host.split(separator: ".", omittingEmptySubsequences: false)
    return octets.count == 4 && octets[0] == "127"
      && octets.allSatisfy {
        $0.count <= 3 && $0.allSatisfy(\.isASCIIDigit) && UInt8($0) != nil
          && ($0.count == 1 || $0.first != "0")
      }
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
