@_exported public import DCErrors

/// An error from reading or verifying a trusted list, a certificate revocation list or a
/// registration certificate: a code naming what failed, and a reason.
public typealias TrustError = DCError<TrustErrorCode>

/// What kind of failure this is; match on it, never on the reason text.
public struct TrustErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// The input is not the structure its kind defines (a missing or mistyped field, bad encoding).
  public static let malformed = Self("malformed")
  /// The input is larger or deeper than the limit for its kind (docs/LIMITS.md).
  public static let tooLarge = Self("tooLarge")
  /// The list's or certificate's signature does not verify.
  public static let invalidSignature = Self("invalidSignature")
  /// The signer is not one of the operator certificates the list was imported with, or its chain
  /// does not validate.
  public static let untrustedSigner = Self("untrustedSigner")
  /// A signature algorithm, format version or critical element this library does not process.
  public static let unsupported = Self("unsupported")
  /// The list or certificate is outside its validity period (a list past its next update when
  /// the policy does not accept stale lists).
  public static let expired = Self("expired")
  /// The kind of list is not available on this platform (XML lists need libxmlsec1).
  public static let unavailable = Self("unavailable")
  /// The certificate is revoked or suspended by the status list it names (a registration
  /// certificate's `status`, ETSI TS 119 475 v1.2.1 Table 10), or its status is unknown under
  /// a fail-closed revocation policy.
  public static let revoked = Self("revoked")
}
