@_exported public import DCErrors

/// An error from parsing JSON text: an extensible code and a reason.
///
/// Codes are values rather than enum cases so that new failure kinds break no client
/// (the swift-certificates convention, as in `CryptoError`).
public typealias JSONError = DCError<JSONErrorCode>

/// What kind of failure this is; match on it, never on the reason text.
public struct JSONErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }

  /// The code's name, for logs.
  public var description: String { name }

  /// Text is not JSON under RFC 8259 and the parser's limits (depth, length, duplicate keys).
  public static let invalidJSON = Self("invalidJSON")
}
