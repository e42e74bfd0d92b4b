@_exported public import DCErrors

/// An error from HPKE (RFC 9180): an extensible code and a reason.
public typealias HPKEError = DCError<HPKEErrorCode>

/// What kind of failure this is.
public struct HPKEErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// The encapsulated key is not a valid public key of the suite's KEM (RFC 9180 §7.1.1).
  public static let invalidEncapsulatedKey = Self("invalidEncapsulatedKey")
  /// A key is on the wrong curve for the suite's KEM.
  public static let invalidKey = Self("invalidKey")
  /// Decryption failed: wrong key, info, AAD, sequence or a tampered ciphertext (RFC 9180 §5.2).
  public static let openFailed = Self("openFailed")
  /// PSK and PSK id are inconsistent with the mode (RFC 9180 §5.1 VerifyPSKInputs).
  public static let invalidPSKInputs = Self("invalidPSKInputs")
  /// The context's sequence number is exhausted (RFC 9180 §5.2 MessageLimitReachedError).
  public static let messageLimitReached = Self("messageLimitReached")
  /// DeriveKeyPair found no valid scalar in 256 candidates (RFC 9180 §7.1.3).
  package static let deriveKeyPairFailed = Self("deriveKeyPairFailed")
  /// Seal or open was called on an export-only suite (RFC 9180 §5.3).
  public static let exportOnly = Self("exportOnly")
  /// A parameter is out of range (export length, for example).
  package static let invalidParameter = Self("invalidParameter")
}
