public import ErrorKit

/// An error from reading or checking OpenID4VCI 1.0 values: an extensible code and a reason.
///
/// Codes are values rather than enum cases so that new failure kinds break no client (the
/// convention of every module's error, as in `JOSEError`).
public struct OpenID4VCIError: CausedError {
  /// What kind of failure this is; match on it, never on the reason text.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    private init(_ name: String) { self.name = name }

    /// The code's name, for logs.
    public var description: String { name }

    /// Text is not JSON under RFC 8259 and the JSON module's limits, or is larger than allowed.
    public static let invalidJSON = Code("invalidJSON")
    /// A credential offer URI is not `openid-credential-offer://` or `haip-vci://` with exactly
    /// one of `credential_offer` and `credential_offer_uri` (OpenID4VCI 1.0 §4.1.2, §4.1.3).
    public static let invalidOfferURI = Code("invalidOfferURI")
    /// A credential offer object breaks OpenID4VCI 1.0 §4.1.1.
    public static let invalidOffer = Code("invalidOffer")
    /// A URL is not an `https` URL (or a loopback `http` URL when the development policy
    /// allows it), or an identifier has a query or fragment (OpenID4VCI 1.0 §12.2.1, RFC 8414 §2).
    public static let invalidURL = Code("invalidURL")
    /// Credential issuer or authorization server metadata breaks OpenID4VCI 1.0 §12.2.4 or
    /// RFC 8414 §2.
    public static let invalidMetadata = Code("invalidMetadata")
    /// The metadata names an issuer other than the one whose well-known URL was fetched
    /// (OpenID4VCI 1.0 §12.2.4 `credential_issuer`, RFC 8414 §3.3 `issuer`).
    public static let issuerMismatch = Code("issuerMismatch")
    /// Signed metadata is not a well-formed JWT of OpenID4VCI 1.0 §12.2.3.
    public static let invalidSignedMetadata = Code("invalidSignedMetadata")
    /// Signed metadata does not verify: no `x5c`, a chain reaching no trust anchor, a bad
    /// signature, or an expired or future-dated JWT (OpenID4VCI 1.0 §12.2.3).
    public static let untrustedSignedMetadata = Code("untrustedSignedMetadata")
  }

  /// What kind of failure this is.
  public let code: Code
  /// A human-readable explanation.
  public let reason: String
  /// The error this one wraps (a lower module's error, kept as a value), or nil for a root cause.
  public let underlying: (any Error & Sendable)?
  /// The file (`#fileID`) where the error was created.
  public let file: String
  /// The line where the error was created.
  public let line: UInt

  /// Creates an error with a code and a reason.
  public init(
    _ code: Code, _ reason: String, underlying: (any Error & Sendable)? = nil,
    file: String = #fileID, line: UInt = #line
  ) {
    self.underlying = underlying
    self.file = file
    self.line = line
    self.code = code
    self.reason = reason
  }

  /// `OpenID4VCIError.<code>: <reason>`.
  public var description: String { causedDescription }

  /// The description, the throw site, and the cause chain, one per line.
  public var debugDescription: String { causedDebugDescription }
}
