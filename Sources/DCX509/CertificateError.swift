public import DCErrors

/// An error from reading, building or checking certificates: an extensible code and a reason.
///
/// Codes are values rather than enum cases so new failure kinds break no client, the
/// swift-certificates convention (RFC 5280 §4 for the structures the reasons refer to).
public struct CertificateError: CausedError {
  /// What kind of failure this is; compare against the static members.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String
    private init(_ name: String) { self.name = name }

    /// The name of the code.
    public var description: String { name }

    /// The bytes are not valid DER (X.690 §10): bad length, truncated, trailing bytes, too deep.
    public static let invalidDER = Code("invalidDER")
    /// The DER is well formed but is not the ASN.1 structure RFC 5280 §4.1 requires.
    public static let invalidCertificate = Code("invalidCertificate")
    /// An extension value does not decode as its RFC 5280 §4.2 syntax, or appears twice.
    public static let invalidExtension = Code("invalidExtension")
    /// The subject public key is malformed (RFC 5480 §2.2), such as a point off its curve.
    public static let invalidPublicKey = Code("invalidPublicKey")
    /// The text is not a PEM `CERTIFICATE` document (RFC 7468 §5).
    public static let invalidPEM = Code("invalidPEM")
    /// An object identifier in dotted form cannot be encoded (X.690 §8.19).
    public static let invalidObjectIdentifier = Code("invalidObjectIdentifier")
    /// A builder input cannot form a valid certificate (RFC 5280 §4.1.2).
    public static let invalidBuilderInput = Code("invalidBuilderInput")
    /// The signer failed to produce a signature for a certificate being built.
    public static let signingFailed = Code("signingFailed")
  }

  /// What kind of failure this is.
  public let code: Code
  /// A human-readable explanation, naming the field that was wrong.
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

  /// `CertificateError.<code>: <reason>`.
  public var description: String { causedDescription }

  /// The description, the throw site, and the cause chain, one per line.
  public var debugDescription: String { causedDebugDescription }
}
