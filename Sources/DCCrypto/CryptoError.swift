@_exported public import DCErrors

/// An error from a cryptographic operation: an extensible code clients can match, and a reason.
///
/// Codes are values rather than enum cases so that new failure kinds break no client
/// (the swift-certificates convention).
public typealias CryptoError = DCError<CryptoErrorCode>

/// What kind of failure this is.
public struct CryptoErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// A key's bytes are malformed, of the wrong size, or out of range for its curve.
  public static let invalidKey = Self("invalidKey")
  /// A public point is not on the expected curve, or is the point at infinity.
  package static let invalidPoint = Self("invalidPoint")
  /// A signature's encoding is malformed (not strict DER, or the wrong raw length).
  package static let invalidSignatureEncoding = Self("invalidSignatureEncoding")
  /// AEAD authentication failed: wrong key, nonce, associated data or tag.
  package static let authenticationFailure = Self("authenticationFailure")
  /// A parameter is out of range (key or nonce length, output length).
  public static let invalidParameter = Self("invalidParameter")
  /// Two keys on different curves were combined.
  package static let curveMismatch = Self("curveMismatch")
  /// The key type or curve is not one this library supports.
  public static let unsupportedAlgorithm = Self("unsupportedAlgorithm")
  /// A PEM document is malformed or has an unexpected label.
  public static let invalidPEM = Self("invalidPEM")
  /// The crypto backend reported an unexpected failure.
  package static let backendFailure = Self("backendFailure")
}
