@_exported public import DCErrors

/// An error from reading, building or checking certificates: an extensible code and a reason.
///
/// Codes are values rather than enum cases so new failure kinds break no client, the
/// swift-certificates convention (RFC 5280 §4 for the structures the reasons refer to).
public typealias CertificateError = DCError<CertificateErrorCode>

/// What kind of failure this is; compare against the static members.
public struct CertificateErrorCode: DCErrorCode {
  private let name: String
  private init(_ name: String) { self.name = name }

  /// The name of the code.
  public var description: String { name }

  /// The bytes are not valid DER (X.690 §10): bad length, truncated, trailing bytes, too deep.
  public static let invalidDER = Self("invalidDER")
  /// The DER is well formed but is not the ASN.1 structure RFC 5280 §4.1 requires.
  public static let invalidCertificate = Self("invalidCertificate")
  /// An extension value does not decode as its RFC 5280 §4.2 syntax, or appears twice.
  package static let invalidExtension = Self("invalidExtension")
  /// The subject public key is malformed (RFC 5480 §2.2), such as a point off its curve.
  package static let invalidPublicKey = Self("invalidPublicKey")
  /// The DER is well formed but is not the CertificateList RFC 5280 §5.1 requires, or exceeds
  /// a limit (docs/LIMITS.md).
  public static let invalidCRL = Self("invalidCRL")
  /// The text is not a PEM `CERTIFICATE` document (RFC 7468 §5).
  public static let invalidPEM = Self("invalidPEM")
  /// An object identifier in dotted form cannot be encoded (X.690 §8.19).
  package static let invalidObjectIdentifier = Self("invalidObjectIdentifier")
  /// A builder input cannot form a valid certificate (RFC 5280 §4.1.2).
  public static let invalidBuilderInput = Self("invalidBuilderInput")
  /// The signer failed to produce a signature for a certificate being built.
  public static let signingFailed = Self("signingFailed")
}
