@_exported public import DCErrors

/// An error from the DC API layer: an extensible code and a reason.
public typealias DigitalCredentialsError = DCError<DigitalCredentialsErrorCode>

/// What kind of failure this is.
public struct DigitalCredentialsErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// The request envelope or its `data` cannot be read.
  public static let invalidRequest = Self("invalidRequest")
  /// No request in the envelope uses a protocol this wallet answers.
  public static let unsupportedProtocol = Self("unsupportedProtocol")
  /// The origin is not a serialized web origin (WHATWG HTML §7.5).
  public static let invalidOrigin = Self("invalidOrigin")
  /// `encryptionInfo` is malformed: tag, nonce or recipient key (ISO/IEC TS 18013-7 C.3.2.1).
  public static let invalidEncryptionInfo = Self("invalidEncryptionInfo")
  /// A reader signature does not verify: the request must be refused.
  public static let invalidReaderAuthentication = Self("invalidReaderAuthentication")
  /// The reader is not trusted and the caller's policy requires it.
  public static let untrustedReader = Self("untrustedReader")
  /// The consent asks for something the request or the credential does not cover.
  public static let consentViolation = Self("consentViolation")
  /// No stored credential can answer the request.
  public static let noMatchingCredential = Self("noMatchingCredential")
  /// The encrypted response cannot be opened (wrong key, origin or a tampered message).
  public static let decryptionFailed = Self("decryptionFailed")
  /// The response does not verify (issuer, device authentication, or what was returned).
  public static let verificationFailed = Self("verificationFailed")
  /// A signing or sealing step failed.
  public static let cryptoFailure = Self("cryptoFailure")

  /// `DigitalCredentialsError`, the name descriptions give the error.
  public static var errorName: String { "DigitalCredentialsError" }
}
