@_exported public import DCErrors

/// An error from reading, building or verifying a Status List or a Status List Token
/// (draft-ietf-oauth-status-list): an extensible code naming what failed, and a reason.
public typealias StatusListError = DCError<StatusListErrorCode>

/// What kind of failure this is; match on it, never on the reason text.
public struct StatusListErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// The input is not a Status List, a Status List Token or a status claim as the draft
  /// defines it (a missing or mistyped claim, bad base64url, a wrong `typ`, bytes that are
  /// neither a JWS nor a COSE_Sign1).
  public static let malformed = Self("malformed")
  /// `bits` is not 1, 2, 4 or 8 (draft §4.1).
  public static let unsupportedBits = Self("unsupportedBits")
  /// The compressed list is not a complete, valid zlib stream (RFC 1950).
  public static let decompressionFailed = Self("decompressionFailed")
  /// zlib could not compress the list.
  public static let compressionFailed = Self("compressionFailed")
  /// The token, or the list once decompressed, is larger than the limit (``StatusListLimits``).
  public static let tooLarge = Self("tooLarge")
  /// The index is not in the list (draft §8.3 step 5).
  public static let indexOutOfRange = Self("indexOutOfRange")
  /// A status value does not fit in the list's `bits`.
  public static let invalidStatus = Self("invalidStatus")
  /// The token's signature does not verify (draft §8.3 step 3).
  public static let invalidSignature = Self("invalidSignature")
  /// The token's certificate chain is absent or does not validate to a trust anchor.
  public static let untrusted = Self("untrusted")
  /// Signing the token failed.
  public static let signingFailed = Self("signingFailed")
}
