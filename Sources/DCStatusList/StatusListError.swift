public import DCErrors

/// An error from reading, building or verifying a Status List or a Status List Token
/// (draft-ietf-oauth-status-list): an extensible code naming what failed, and a reason.
public struct StatusListError: CausedError {
  /// What kind of failure this is; match on it, never on the reason text.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    private init(_ name: String) { self.name = name }
    /// The code's name.
    public var description: String { name }

    /// The input is not a Status List, a Status List Token or a status claim as the draft
    /// defines it (a missing or mistyped claim, bad base64url, a wrong `typ`, bytes that are
    /// neither a JWS nor a COSE_Sign1).
    public static let malformed = Code("malformed")
    /// `bits` is not 1, 2, 4 or 8 (draft §4.1).
    package static let unsupportedBits = Code("unsupportedBits")
    /// The compressed list is not a complete, valid zlib stream (RFC 1950).
    package static let decompressionFailed = Code("decompressionFailed")
    /// zlib could not compress the list.
    package static let compressionFailed = Code("compressionFailed")
    /// The token, or the list once decompressed, is larger than the limit (``StatusListLimits``).
    public static let tooLarge = Code("tooLarge")
    /// The index is not in the list (draft §8.3 step 5).
    public static let indexOutOfRange = Code("indexOutOfRange")
    /// A status value does not fit in the list's `bits`.
    package static let invalidStatus = Code("invalidStatus")
    /// The token's signature does not verify (draft §8.3 step 3).
    public static let invalidSignature = Code("invalidSignature")
    /// The token's certificate chain is absent or does not validate to a trust anchor.
    public static let untrusted = Code("untrusted")
    /// Signing the token failed.
    public static let signingFailed = Code("signingFailed")
  }

  /// What kind of failure this is.
  public let code: Code
  /// Why, for people.
  public let reason: String
  /// The lower module's error this one wraps.
  public let underlying: (any Error & Sendable)?
  /// Where the error was created.
  public let file: String
  /// The line where the error was created.
  public let line: UInt

  /// Creates an error with its code, a reason, and optionally the error it wraps.
  public init(
    _ code: Code, _ reason: String, underlying: (any Error & Sendable)? = nil,
    file: String = #fileID, line: UInt = #line
  ) {
    self.code = code
    self.reason = reason
    self.underlying = underlying
    self.file = file
    self.line = line
  }

  /// `StatusListError.code: reason`.
  public var description: String { causedDescription }
  /// The description, the throw site and the cause chain.
  public var debugDescription: String { causedDebugDescription }
}
