public import DCOpenID4VCI
public import Foundation

/// The issuer's endpoints: the Credential Issuer Identifier with a fixed path appended, and the
/// well-known metadata URLs (OpenID4VCI 1.0 §12.2.2, RFC 8414 §3.1).
public struct IssuerEndpoints: Sendable, Hashable {
  /// Which endpoint a path names.
  public enum Endpoint: String, Sendable, Hashable, CaseIterable {
    /// The credential issuer metadata: `/.well-known/openid-credential-issuer` inserted between
    /// the identifier's host and path (OpenID4VCI 1.0 §12.2.2).
    case credentialIssuerMetadata
    /// The authorization server metadata: `/.well-known/oauth-authorization-server` inserted
    /// between the identifier's host and path (RFC 8414 §3.1).
    case authorizationServerMetadata
    /// The same metadata at the OpenID Connect location, `/.well-known/openid-configuration`
    /// appended to the identifier (OpenID Connect Discovery 1.0 §4.1).
    case openIDConfiguration
    /// `/par`: the pushed authorization request endpoint (RFC 9126).
    case pushedAuthorization
    /// `/authorize`: the authorization endpoint (RFC 6749 §3.1).
    case authorize
    /// `/token`: the token endpoint (RFC 6749 §3.2, OpenID4VCI 1.0 §6).
    case token
    /// `/nonce`: the nonce endpoint, which hands out `c_nonce` values (OpenID4VCI 1.0 §7).
    case nonce
    /// `/credential`: the credential endpoint (OpenID4VCI 1.0 §8).
    case credential
    /// `/deferred_credential`: the deferred credential endpoint (OpenID4VCI 1.0 §9).
    case deferredCredential
    /// `/notification`: the notification endpoint (OpenID4VCI 1.0 §11).
    case notification
    /// `/offers/<id>`: a credential offer passed by reference (OpenID4VCI 1.0 §4.1.3).
    case offer
    /// `/iacas`: the issuer's IACA certificates as JSON, published as the metadata's
    /// `mdoc_iacas_uri`.
    case iacas
    /// A Token Status List (draft-ietf-oauth-status-list), `/status-lists/<id>` (issue 15).
    case statusList
  }

  /// The Credential Issuer Identifier.
  public let issuer: IssuerIdentifier

  /// The endpoints of `issuer`.
  package init(issuer: IssuerIdentifier) { self.issuer = issuer }

  /// The endpoint path appended to the identifier.
  static func suffix(_ endpoint: Endpoint) -> String? {
    switch endpoint {
    case .pushedAuthorization: "/par"
    case .authorize: "/authorize"
    case .token: "/token"
    case .nonce: "/nonce"
    case .credential: "/credential"
    case .deferredCredential: "/deferred_credential"
    case .notification: "/notification"
    case .offer: "/offers/"
    case .iacas: "/iacas"
    case .statusList: "/status-lists/"
    case .credentialIssuerMetadata, .authorizationServerMetadata, .openIDConfiguration: nil
    }
  }

  /// The absolute URL of an endpoint (for ``Endpoint/offer``, the prefix an offer id follows).
  public func url(_ endpoint: Endpoint) -> URL {
    switch endpoint {
    case .credentialIssuerMetadata: return issuer.credentialIssuerMetadataURL
    case .authorizationServerMetadata: return issuer.authorizationServerMetadataURL
    case .openIDConfiguration: return issuer.openIDConfigurationURL
    default:
      var base = issuer.string
      while base.hasSuffix("/") { base.removeLast() }
      return URL(string: base + (Self.suffix(endpoint) ?? "")) ?? issuer.url
    }
  }

  /// The URL an offer passed by reference is served at (§4.1.3).
  package func offerURL(id: String) -> URL {
    URL(string: url(.offer).absoluteString + id) ?? url(.offer)
  }

  /// The URL status list `id` is published at: the `uri` of the credentials' `status_list`
  /// claims and the `sub` of its tokens.
  public func statusListURL(id: Int) -> URL {
    URL(string: url(.statusList).absoluteString + String(id)) ?? url(.statusList)
  }

  /// The endpoint a request path names, and the id after the prefix for ``Endpoint/offer`` and
  /// ``Endpoint/statusList``; nil for an unknown path.
  package func match(path: String) -> (endpoint: Endpoint, offerID: String?)? {
    for endpoint in Endpoint.allCases {
      let expected = Self.path(of: url(endpoint))
      if endpoint == .offer || endpoint == .statusList {
        if path.hasPrefix(expected), path.count > expected.count {
          let id = String(path.dropFirst(expected.count))
          if !id.contains("/") { return (endpoint, id) }
        }
      } else if path == expected {
        return (endpoint, nil)
      }
    }
    return nil
  }

  /// The percent-encoded path of a URL, "/" when empty.
  static func path(of url: URL) -> String {
    let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
    return path.isEmpty ? "/" : path
  }
}
