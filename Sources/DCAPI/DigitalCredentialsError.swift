@_exported public import DCErrors

/// An error from the DC API layer: a request envelope, its protocol or its origin cannot be read.
///
/// The protocol and role modules throw their own errors (`OrgIsoMdocError`, `PresentationError`,
/// `VerifierError`, ...); this one keeps only the envelope and origin codes.
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
}
