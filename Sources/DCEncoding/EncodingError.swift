@_exported public import DCErrors

/// An error from decoding base64, base64url or hex text: an extensible code and a reason.
///
/// Codes are values rather than enum cases so that new failure kinds break no client
/// (the swift-certificates convention, as in `CryptoError`).
public typealias EncodingError = DCError<EncodingErrorCode>

/// What kind of failure this is; match on it, never on the reason text.
public struct EncodingErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }

  /// The code's name, for logs.
  public var description: String { name }

  /// Text is not strict base64url (RFC 4648 §5) or padded base64 (RFC 4648 §4).
  public static let invalidBase64 = Self("invalidBase64")
  /// Text is not an even number of hex digits (RFC 4648 §8).
  package static let invalidHex = Self("invalidHex")
}
