package import DCHTTP
import DCJSON
import DCOpenID4VCI
import Foundation

/// A request an issuer endpoint refuses: the OAuth error code (RFC 6749 §5.2, RFC 6750 §3.1,
/// RFC 9449 §7.1, OpenID4VCI 1.0 §8.3.1.2, §9.3, §11.3), the HTTP status, and the headers the
/// answer carries (`WWW-Authenticate`, `DPoP-Nonce`). The description names the failed check
/// and never carries key material or a stack.
package struct IssuerEndpointFailure: Error, Sendable, Hashable {
  /// `error`.
  package var error: String
  /// `error_description`.
  package var description: String?
  /// The HTTP status.
  package var status: Int
  /// Extra header fields.
  package var headers: HTTPFields
  /// Whether the error goes in a `WWW-Authenticate: DPoP` (or `Bearer`) challenge, as a
  /// resource server answers (RFC 6750 §3, RFC 9449 §7.1), rather than only in the body.
  package var challengeScheme: String?

  /// Creates a failure.
  package init(
    _ error: String, _ description: String? = nil, status: Int = 400, headers: HTTPFields = [:],
    challengeScheme: String? = nil
  ) {
    self.error = error
    self.description = description
    self.status = status
    self.headers = headers
    self.challengeScheme = challengeScheme
  }

  // MARK: OAuth 2.0 (RFC 6749 §5.2)

  static func invalidRequest(_ description: String) -> Self {
    Self("invalid_request", description)
  }
  static func invalidGrant(_ description: String) -> Self { Self("invalid_grant", description) }
  static func invalidClient(_ description: String) -> Self {
    Self("invalid_client", description, status: 401)
  }
  static func unsupportedGrantType(_ description: String) -> Self {
    Self("unsupported_grant_type", description)
  }
  static func invalidScope(_ description: String) -> Self { Self("invalid_scope", description) }
  static func unauthorizedClient(_ description: String) -> Self {
    Self("unauthorized_client", description)
  }

  // MARK: OpenID4VCI 1.0 §8.3.1.2

  static func invalidCredentialRequest(_ description: String) -> Self {
    Self("invalid_credential_request", description)
  }
  static func unknownCredentialConfiguration(_ description: String) -> Self {
    Self("unknown_credential_configuration", description)
  }
  static func unknownCredentialIdentifier(_ description: String) -> Self {
    Self("unknown_credential_identifier", description)
  }
  static func invalidProof(_ description: String) -> Self { Self("invalid_proof", description) }
  static func invalidNonce(_ description: String) -> Self { Self("invalid_nonce", description) }
  static func invalidEncryptionParameters(_ description: String) -> Self {
    Self("invalid_encryption_parameters", description)
  }
  static func credentialRequestDenied(_ description: String) -> Self {
    Self("credential_request_denied", description)
  }

  /// The HTTP answer: the JSON error object, `Cache-Control: no-store`, and for a resource
  /// server's challenge a `WWW-Authenticate` header whose `error` repeats the body's.
  package var response: HTTPResponse {
    let description = self.description.map(Self.quotable)
    let object = OAuthErrorResponse(
      error: OAuthErrorCode(error), errorDescription: description
    ).json
    var fields = headers
    fields["Content-Type"] = "application/json"
    fields["Cache-Control"] = "no-store"
    if let challengeScheme {
      // RFC 6750 §3, RFC 9449 §7.1: the challenge repeats the error; quoted values need no
      // escaping because the description keeps to RFC 6749 §5.2's characters.
      var challenge = challengeScheme
      if challengeScheme == "DPoP" { challenge += " algs=\"ES256\"," }
      challenge += " error=\"\(error)\""
      if let description { challenge += ", error_description=\"\(description)\"" }
      fields["WWW-Authenticate"] = challenge
    }
    return HTTPResponse(status: status, headers: fields, body: object.serializedBytes())
  }

  /// RFC 6749 §5.2 / RFC 6750 §3: `error_description` is `%x20-21 / %x23-5B / %x5D-7E`.
  static func quotable(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map {
          switch $0.value {
          case 0x20...0x21, 0x23...0x5B, 0x5D...0x7E: $0
          default: " "
          }
        }))
  }
}
