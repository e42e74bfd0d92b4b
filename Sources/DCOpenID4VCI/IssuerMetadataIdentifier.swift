import DCErrors
public import Foundation

/// Which URLs the wallet accepts for issuers, servers and endpoints.
///
/// OpenID4VCI 1.0 requires `https` everywhere (§12.2.1, §12.2.4); `allowsLoopbackHTTP` admits
/// `http` to a loopback host (`localhost`, `127.0.0.0/8`, `::1`) for development only, and is
/// never the default.
public struct URLPolicy: Sendable, Hashable {
  /// Whether `http://` URLs whose host is a loopback address are accepted.
  public var allowsLoopbackHTTP: Bool

  /// Creates a policy.
  public init(allowsLoopbackHTTP: Bool = false) { self.allowsLoopbackHTTP = allowsLoopbackHTTP }

  /// `https` only: what the specifications require.
  public static let standard = URLPolicy()
  /// `https`, and `http` to loopback hosts: for development issuers on 127.0.0.1.
  public static let development = URLPolicy(allowsLoopbackHTTP: true)

  /// Checks that `url` is absolute with a host and a scheme this policy accepts.
  func check(_ url: URL, _ what: String) throws(OpenID4VCIError) {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let host = components.host, !host.isEmpty
    else {
      throw OpenID4VCIError(.invalidURL, "\(what) is not an absolute URL with a host")
    }
    switch components.scheme?.lowercased() {
    case "https": return
    case "http" where allowsLoopbackHTTP && Self.isLoopback(host): return
    case "http":
      throw OpenID4VCIError(
        .invalidURL,
        "\(what) uses http; only https is allowed"
          + (Self.isLoopback(host) ? " (loopback http needs the development policy)" : ""))
    default:
      throw OpenID4VCIError(.invalidURL, "\(what) does not use the https scheme")
    }
  }

  /// Reads `text` as a URL and checks it (see ``check(_:_:)``).
  func url(_ text: String, _ what: String) throws(OpenID4VCIError) -> URL {
    guard let url = URL(string: text) else {
      throw OpenID4VCIError(.invalidURL, "\(what) is not a URL")
    }
    try check(url, what)
    return url
  }

  /// `localhost`, an IPv4 address in 127.0.0.0/8, or `::1` (RFC 6761 §6.3, RFC 1122 §3.2.1.3,
  /// RFC 4291 §2.5.3).
  static func isLoopback(_ host: String) -> Bool {
    let host = host.lowercased()
    if host == "localhost" || host == "::1" || host == "[::1]" { return true }
    let octets = host.split(separator: ".", omittingEmptySubsequences: false)
    return octets.count == 4 && octets[0] == "127"
      && octets.allSatisfy { UInt8($0) != nil && ($0.count == 1 || $0.first != "0") }
  }
}

/// A credential issuer or authorization server identifier: an `https` URL with a host and
/// optionally a port and path, but no query or fragment (OpenID4VCI 1.0 §12.2.1, RFC 8414 §2).
///
/// Identifiers compare as strings with no normalisation (OpenID4VCI 1.0 §12.2.4,
/// RFC 8414 §3.3), so the original text is kept.
public struct IssuerIdentifier: Sendable, Hashable, CustomStringConvertible {
  /// The identifier exactly as written.
  public let string: String
  /// The identifier as a URL.
  public let url: URL

  /// Reads and checks an identifier.
  public init(_ string: String, policy: URLPolicy = .standard) throws(OpenID4VCIError) {
    let url = try policy.url(string, "issuer identifier '\(string)'")
    // §12.2.1: "no query or fragment components".
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      components.percentEncodedQuery == nil, components.percentEncodedFragment == nil,
      components.user == nil, components.password == nil
    else {
      throw OpenID4VCIError(
        .invalidURL, "issuer identifier '\(string)' has a query, fragment or user information")
    }
    self.string = string
    self.url = url
  }

  /// The identifier text.
  public var description: String { string }

  /// Where the credential issuer metadata is: `/.well-known/openid-credential-issuer` inserted
  /// between the host and the path (OpenID4VCI 1.0 §12.2.2).
  package var credentialIssuerMetadataURL: URL { inserting("openid-credential-issuer") }

  /// Where RFC 8414 authorization server metadata is: `/.well-known/oauth-authorization-server`
  /// inserted between the host and the path (RFC 8414 §3.1).
  package var authorizationServerMetadataURL: URL { inserting("oauth-authorization-server") }

  /// Where OpenID Connect provider metadata is: `/.well-known/openid-configuration` appended to
  /// the identifier (OpenID Connect Discovery 1.0 §4.1), the fallback after RFC 8414's URL.
  package var openIDConfigurationURL: URL {
    var components = self.components
    components.percentEncodedPath = pathWithoutTrailingSlash + "/.well-known/openid-configuration"
    return components.url ?? url
  }

  /// The RFC 8414 URL, then the OpenID Connect one: the order a wallet tries them in.
  package var authorizationServerMetadataURLs: [URL] {
    [authorizationServerMetadataURL, openIDConfigurationURL]
  }

  private var components: URLComponents {
    URLComponents(url: url, resolvingAgainstBaseURL: false) ?? URLComponents()
  }

  /// The path with any terminating "/" removed (RFC 8414 §3.1: "any terminating '/' MUST be
  /// removed before inserting '/.well-known/'").
  private var pathWithoutTrailingSlash: String {
    var path = components.percentEncodedPath
    while path.hasSuffix("/") { path.removeLast() }
    return path
  }

  private func inserting(_ suffix: String) -> URL {
    var components = self.components
    components.percentEncodedPath = "/.well-known/" + suffix + pathWithoutTrailingSlash
    return components.url ?? url
  }
}
