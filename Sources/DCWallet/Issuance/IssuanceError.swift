@_exported public import DCErrors

/// An error of the wallet's issuance client (OpenID4VCI 1.0): an extensible code naming the
/// step that failed, a reason, and the cause (an `OpenID4VCIError`, an `HTTPError`, or the
/// server's `OAuthErrorResponse`).
public typealias IssuanceError = DCError<IssuanceErrorCode>

/// What kind of failure this is; match on it, never on the reason text.
public struct IssuanceErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// The offer does not parse, or fetching it by reference failed (§4.1).
  public static let offer = Self("offer")
  /// A DC API create request cannot be read, or is not an issuance request (it names a
  /// presentation protocol) (W3C Digital Credentials API, `DigitalCredentialCreateRequest`).
  public static let invalidRequest = Self("invalidRequest")
  /// No entry of a DC API create request uses an issuance protocol this wallet answers
  /// (`openid4vci-v1` or a historical alias).
  public static let unsupportedProtocol = Self("unsupportedProtocol")
  /// The origin the platform reported is not a web origin.
  public static let invalidOrigin = Self("invalidOrigin")
  /// A DC API offer is for a credential issuer at another origin than the website that made it,
  /// and the wallet's policy asks for the same origin.
  public static let originMismatch = Self("originMismatch")
  /// Issuer or authorization server metadata is missing, malformed, for another issuer, or
  /// signed metadata does not verify (§12.2, RFC 8414).
  package static let metadata = Self("metadata")
  /// The offer carries no grant the requested flow can use (§4.1.1).
  public static let grantNotOffered = Self("grantNotOffered")
  /// The offer requires a transaction code (`tx_code`, §4.1.1) and none was given.
  public static let txCodeRequired = Self("txCodeRequired")
  /// The transaction code given does not fit the offer's `tx_code` object: not digits where
  /// `input_mode` is `numeric` (the default), or not `length` characters long (§4.1.1).
  /// Refused before any request.
  public static let txCodeInvalid = Self("txCodeInvalid")
  /// Re-issuance was asked for a credential the wallet keeps no refresh token for (not issued
  /// by OpenID4VCI, or the authorization server gave none) (RFC 6749 §6).
  package static let noRefreshToken = Self("noRefreshToken")
  /// The authorization server refused the refresh token (`invalid_grant`, RFC 6749 §5.2):
  /// expired, revoked, or bound to another DPoP key or client. A new issuance is needed.
  package static let refreshRefused = Self("refreshRefused")
  /// Re-issuance was asked for a credential id the wallet does not hold.
  package static let unknownCredential = Self("unknownCredential")
  /// The wallet could not read or write its store or key store during a re-issuance.
  package static let walletStorage = Self("walletStorage")
  /// The authorization step failed: PAR, the redirect's `state` or `iss`, or an error the
  /// authorization server returned (§5; RFC 9126, RFC 9207).
  public static let authorization = Self("authorization")
  /// The token request failed (§6).
  package static let token = Self("token")
  /// A credential request failed (§8), or its response is unusable.
  package static let credential = Self("credential")
  /// A deferred credential request failed (§9).
  package static let deferred = Self("deferred")
  /// A notification was not accepted (§11).
  package static let notification = Self("notification")
  /// The issuer needs something this client does not do: a proof type, an encryption
  /// algorithm, a configuration it does not publish.
  public static let unsupported = Self("unsupported")
  /// The wallet provider could not supply a client or key attestation, or none is configured
  /// where the issuer requires one (OpenID4VCI 1.0 Appendix D, E).
  package static let walletProvider = Self("walletProvider")
  /// The HTTP exchange failed: connection, timeout, size limit, URL policy.
  public static let transport = Self("transport")
  /// A server answered with a status or body this client does not expect.
  package static let unexpectedResponse = Self("unexpectedResponse")
}
