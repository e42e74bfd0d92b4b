@_exported public import DCErrors

/// An error of the wallet's mdoc presentation model: a request that cannot be answered as asked,
/// a reader that fails authentication, a consent the request does not cover, or a response that
/// cannot be made.
public typealias PresentationError = DCError<PresentationErrorCode>

/// What kind of failure a ``PresentationError`` is.
public struct PresentationErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// The DeviceRequest cannot be read, or its use cases name doc requests that do not exist.
  public static let invalidRequest = Self("invalidRequest")
  /// A reader signature does not verify: the request must be refused.
  public static let invalidReaderAuthentication = Self("invalidReaderAuthentication")
  /// The reader is not trusted and the caller's policy requires it.
  public static let untrustedReader = Self("untrustedReader")
  /// The consent asks for something the request or the credential does not cover.
  public static let consentViolation = Self("consentViolation")
  /// No stored credential can answer the request.
  public static let noMatchingCredential = Self("noMatchingCredential")
  /// A signing or sealing step failed.
  public static let cryptoFailure = Self("cryptoFailure")
}
