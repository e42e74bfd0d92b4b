public import DCErrors

/// An error raised while decoding CBOR or a model read from CBOR.
///
/// RFC 8949 §5.3 (validity) and §1.2 / Appendix F (well-formedness): the code says what was
/// wrong, `offset` where in the input, and `reason` explains it to a human.
public struct CBORError: CausedError {
  /// An extensible error code: new codes can be added without breaking clients (RFC 8949 §5.3).
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String

    private init(_ name: String) { self.name = name }

    /// The input ended inside a data item (RFC 8949 Appendix F.1).
    public static let truncated = Code("truncated")
    /// Bytes follow the single top-level data item (RFC 8949 §5.3).
    package static let trailingBytes = Code("trailingBytes")
    /// Arrays, maps and tags nest deeper than the decoder's limit (RFC 8949 §5.2).
    package static let nestingTooDeep = Code("nestingTooDeep")
    /// A length or count exceeds the decoder's limit (RFC 8949 §5.2).
    package static let lengthTooLarge = Code("lengthTooLarge")
    /// The input holds more data items than the decoder's limit (RFC 8949 §5.2).
    package static let tooManyItems = Code("tooManyItems")
    /// A map holds the same key twice (RFC 8949 §5.6).
    public static let duplicateMapKey = Code("duplicateMapKey")
    /// A text string is not valid UTF-8 (RFC 8949 §3.1, §5.3.1).
    package static let invalidUTF8 = Code("invalidUTF8")
    /// Additional information 28 to 30 is reserved (RFC 8949 §3).
    package static let reservedAdditionalInfo = Code("reservedAdditionalInfo")
    /// A break stop code appears outside an indefinite-length item (RFC 8949 §3.2.1).
    package static let unexpectedBreak = Code("unexpectedBreak")
    /// An indefinite-length item is malformed, e.g. a chunk of the wrong type (RFC 8949 §3.2).
    package static let malformedIndefiniteLength = Code("malformedIndefiniteLength")
    /// A two-byte simple value is below 32 (RFC 8949 §3.3).
    package static let invalidSimpleValue = Code("invalidSimpleValue")
    /// An item has a different type than the model expects (RFC 8949 §5.3).
    public static let typeMismatch = Code("typeMismatch")
    /// A map lacks a field the model requires (RFC 8949 §5.3).
    public static let missingField = Code("missingField")
    /// A tag's content has the wrong type or syntax (RFC 8949 §5.3.2).
    package static let invalidTagContent = Code("invalidTagContent")
    /// A value is out of the range the model allows (RFC 8949 §5.3).
    package static let valueOutOfRange = Code("valueOutOfRange")

    /// The code's name (RFC 8949 §5.3).
    public var description: String { name }
  }

  /// What was wrong (RFC 8949 §5.3).
  public var code: Code
  /// The byte offset in the input where the problem was found, when known (RFC 8949 §5.3).
  public var offset: Int?
  /// A human-readable explanation naming the field or item (RFC 8949 §5.3).
  public var reason: String

  /// The error this one wraps (a lower module's error, kept as a value), or nil for a root cause.
  public let underlying: (any Error & Sendable)?
  /// The file (`#fileID`) where the error was created.
  public let file: String
  /// The line where the error was created.
  public let line: UInt

  /// Creates an error (RFC 8949 §5.3).
  public init(
    _ code: Code, offset: Int? = nil, reason: String, underlying: (any Error & Sendable)? = nil,
    file: String = #fileID, line: UInt = #line
  ) {
    self.underlying = underlying
    self.file = file
    self.line = line
    self.code = code
    self.offset = offset
    self.reason = reason
  }

  /// A one-line description with code, offset and reason (RFC 8949 §5.3).
  public var description: String {
    if let offset {
      return "CBORError.\(code) at offset \(offset): \(reason)"
    }
    return "CBORError.\(code): \(reason)"
  }

  /// The same error with its reason prefixed by a context such as `Type.field` (RFC 8949 §5.3).
  package func inContext(_ context: String) -> CBORError {
    // Subscript paths such as `[0]` attach directly: `Type.field[0]: reason`.
    let joined = reason.hasPrefix("[") ? context + reason : "\(context): \(reason)"
    return CBORError(
      code, offset: offset, reason: joined, underlying: underlying, file: file, line: line)
  }

  /// Equal when the code and reason and offset are; the cause and throw site are ignored.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.code == rhs.code && lhs.reason == rhs.reason && lhs.offset == rhs.offset
  }

  /// Hashes the fields `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(code)
    hasher.combine(reason)
    hasher.combine(offset)
  }

  /// The description, the throw site, and the cause chain, one per line.
  public var debugDescription: String { causedDebugDescription }
}
