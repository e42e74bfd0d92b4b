@_exported public import DCErrors

/// An error raised while decoding CBOR or a model read from CBOR.
///
/// RFC 8949 §5.3 (validity) and §1.2 / Appendix F (well-formedness): the code says what was
/// wrong, `offset` where in the input, and `reason` explains it to a human.
public typealias CBORError = DCError<CBORErrorCode>

/// An extensible error code: new codes can be added without breaking clients (RFC 8949 §5.3).
public struct CBORErrorCode: DCErrorCode {
  private let name: String

  private init(_ name: String) { self.name = name }

  /// The input ended inside a data item (RFC 8949 Appendix F.1).
  public static let truncated = Self("truncated")
  /// Bytes follow the single top-level data item (RFC 8949 §5.3).
  package static let trailingBytes = Self("trailingBytes")
  /// Arrays, maps and tags nest deeper than the decoder's limit (RFC 8949 §5.2).
  package static let nestingTooDeep = Self("nestingTooDeep")
  /// A length or count exceeds the decoder's limit (RFC 8949 §5.2).
  package static let lengthTooLarge = Self("lengthTooLarge")
  /// The input holds more data items than the decoder's limit (RFC 8949 §5.2).
  package static let tooManyItems = Self("tooManyItems")
  /// A map holds the same key twice (RFC 8949 §5.6).
  public static let duplicateMapKey = Self("duplicateMapKey")
  /// A text string is not valid UTF-8 (RFC 8949 §3.1, §5.3.1).
  package static let invalidUTF8 = Self("invalidUTF8")
  /// Additional information 28 to 30 is reserved (RFC 8949 §3).
  package static let reservedAdditionalInfo = Self("reservedAdditionalInfo")
  /// A break stop code appears outside an indefinite-length item (RFC 8949 §3.2.1).
  package static let unexpectedBreak = Self("unexpectedBreak")
  /// An indefinite-length item is malformed, e.g. a chunk of the wrong type (RFC 8949 §3.2).
  package static let malformedIndefiniteLength = Self("malformedIndefiniteLength")
  /// A two-byte simple value is below 32 (RFC 8949 §3.3).
  package static let invalidSimpleValue = Self("invalidSimpleValue")
  /// An item has a different type than the model expects (RFC 8949 §5.3).
  public static let typeMismatch = Self("typeMismatch")
  /// A map lacks a field the model requires (RFC 8949 §5.3).
  public static let missingField = Self("missingField")
  /// A tag's content has the wrong type or syntax (RFC 8949 §5.3.2).
  package static let invalidTagContent = Self("invalidTagContent")
  /// A value is out of the range the model allows (RFC 8949 §5.3).
  package static let valueOutOfRange = Self("valueOutOfRange")

  /// The code's name (RFC 8949 §5.3).
  public var description: String { name }

  /// The byte offset in the input where the problem was found (RFC 8949 §5.3).
  public typealias Detail = Int

  /// `CBORError.code at offset N: reason`, or without the offset when it is unknown.
  public static func description(of error: CBORError) -> String {
    if let offset = error.offset {
      return "CBORError.\(error.code) at offset \(offset): \(error.reason)"
    }
    return "CBORError.\(error.code): \(error.reason)"
  }
}

extension DCError where Code == CBORErrorCode {
  /// Creates an error (RFC 8949 §5.3).
  package init(
    _ code: CBORErrorCode, offset: Int? = nil, reason: String,
    underlying: (any Error & Sendable)? = nil, file: String = #fileID, line: UInt = #line
  ) {
    self.init(code, reason, detail: offset, underlying: underlying, file: file, line: line)
  }

  /// The byte offset in the input where the problem was found, when known (RFC 8949 §5.3).
  public var offset: Int? { detail }

  /// The same error with its reason prefixed by a context such as `Type.field` (RFC 8949 §5.3).
  package func inContext(_ context: String) -> CBORError {
    // Subscript paths such as `[0]` attach directly: `Type.field[0]: reason`.
    let joined = reason.hasPrefix("[") ? context + reason : "\(context): \(reason)"
    return CBORError(
      code, offset: offset, reason: joined, underlying: underlying, file: file, line: line)
  }
}
