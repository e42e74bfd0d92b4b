extension CBOR {
  /// A short name of the item's type for error messages (RFC 8949 §3.1).
  package var kindName: String {
    switch unwrapped {
    case .unsigned: return "unsigned integer"
    case .negative: return "negative integer"
    case .byteString: return "byte string"
    case .textString: return "text string"
    case .array: return "array"
    case .map: return "map"
    case .tagged(let tag, _): return "tag \(tag)"
    case .simple(let value): return "simple(\(value))"
    case .boolean: return "boolean"
    case .null: return "null"
    case .undefined: return "undefined"
    case .half, .float, .double: return "float"
    case .encoded: return "encoded item"
    }
  }

  private func mismatch(_ context: String, _ expected: String) -> CBORError {
    CBORError(
      .typeMismatch, reason: Self.prefixed(context, "expected \(expected), got \(kindName)"))
  }

  /// An empty context leaves the message bare, so a caller can prefix the field name once.
  static func prefixed(_ context: String, _ message: String) -> String {
    context.isEmpty ? message : "\(context): \(message)"
  }

  /// The map, or a `typeMismatch` naming the context (RFC 8949 §3.1, major type 5).
  package func requireMap(_ context: @autoclosure () -> String) throws(CBORError) -> CBORMap {
    guard let map else { throw mismatch(context(), "a map") }
    return map
  }

  /// The array members, optionally of an exact count, or a `typeMismatch` (RFC 8949 §3.1, major type 4).
  package func requireArray(_ context: @autoclosure () -> String, count: Int? = nil)
    throws(CBORError) -> [CBOR]
  {
    guard let array else { throw mismatch(context(), "an array") }
    if let count, array.count != count {
      throw CBORError(
        .typeMismatch,
        reason: Self.prefixed(
          context(), "expected an array of \(count) members, got \(array.count)"))
    }
    return array
  }

  /// The text, or a `typeMismatch` naming the context (RFC 8949 §3.1, major type 3).
  package func requireText(_ context: @autoclosure () -> String) throws(CBORError) -> String {
    guard let text else { throw mismatch(context(), "a text string") }
    return text
  }

  /// The bytes, or a `typeMismatch` naming the context (RFC 8949 §3.1, major type 2).
  package func requireBytes(_ context: @autoclosure () -> String) throws(CBORError) -> [UInt8] {
    guard let bytes else { throw mismatch(context(), "a byte string") }
    return bytes
  }

  /// The integer as `Int`, or a `typeMismatch` / `valueOutOfRange` (RFC 8949 §3.1, major types 0 and 1).
  package func requireInt(_ context: @autoclosure () -> String) throws(CBORError) -> Int {
    if let int { return int }
    switch unwrapped {
    case .unsigned, .negative:
      throw CBORError(
        .valueOutOfRange, reason: Self.prefixed(context(), "integer does not fit in Int"))
    default:
      throw mismatch(context(), "an integer")
    }
  }

  /// The unsigned integer, or a `typeMismatch` naming the context (RFC 8949 §3.1, major type 0).
  package func requireUInt64(_ context: @autoclosure () -> String) throws(CBORError) -> UInt64 {
    guard let uint64 else { throw mismatch(context(), "an unsigned integer") }
    return uint64
  }

  /// The boolean, or a `typeMismatch` naming the context (RFC 8949 §3.3).
  package func requireBool(_ context: @autoclosure () -> String) throws(CBORError) -> Bool {
    guard let bool else { throw mismatch(context(), "a boolean") }
    return bool
  }

  /// The content of a tag with the given number, or a `typeMismatch` (RFC 8949 §3.4).
  package func requireTag(_ tag: UInt64, _ context: @autoclosure () -> String) throws(CBORError)
    -> CBOR
  {
    guard case .tagged(tag, let content) = unwrapped else {
      throw mismatch(context(), "tag \(tag)")
    }
    return content
  }

  /// The embedded item of a tag 24 wrapper with its bytes kept exactly (RFC 8949 §3.4.5.1).
  package func requireTag24(_ context: @autoclosure () -> String) throws(CBORError) -> EncodedCBOR {
    guard case .tagged(24, _) = unwrapped else { throw mismatch(context(), "tag 24") }
    do {
      return try EncodedCBOR(tag24: self)
    } catch {
      throw error.inContext(context())
    }
  }

  /// Decodes the item as a model type, prefixing errors with the context (RFC 8949 §5.3).
  public func decode<T: CBORDecodable>(
    as type: T.Type = T.self, in context: @autoclosure () -> String
  ) throws(CBORError) -> T {
    do {
      return try T(cbor: self)
    } catch {
      let context = context()
      throw context.isEmpty ? error : error.inContext(context)
    }
  }
}

extension CBORMap {
  /// The value for a key decoded as `T`, or `missingField` naming the key and context (RFC 8949 §5.3).
  public func required<T: CBORDecodable>(
    _ key: CBOR, as type: T.Type = T.self, in context: @autoclosure () -> String
  ) throws(CBORError) -> T {
    guard let value = self[key: key] else {
      throw CBORError(
        .missingField, reason: "\(context()).\(key.fieldName): missing required field")
    }
    return try value.decode(as: T.self, in: "\(context()).\(key.fieldName)")
  }

  /// The value for a key decoded as `T`, or nil when the key is absent (RFC 8949 §5.3).
  package func optional<T: CBORDecodable>(
    _ key: CBOR, as type: T.Type = T.self, in context: @autoclosure () -> String
  ) throws(CBORError) -> T? {
    guard let value = self[key: key] else { return nil }
    return try value.decode(as: T.self, in: "\(context()).\(key.fieldName)")
  }

  /// `required` for a text string key (RFC 8949 §5.3).
  public func required<T: CBORDecodable>(
    _ key: String, as type: T.Type = T.self, in context: @autoclosure () -> String
  ) throws(CBORError) -> T {
    try required(CBOR.textString(key), as: T.self, in: context())
  }

  /// `optional` for a text string key (RFC 8949 §5.3).
  package func optional<T: CBORDecodable>(
    _ key: String, as type: T.Type = T.self, in context: @autoclosure () -> String
  ) throws(CBORError) -> T? {
    try optional(CBOR.textString(key), as: T.self, in: context())
  }

  /// `required` for an integer key such as a COSE label (RFC 8949 §5.3).
  public func required<T: CBORDecodable>(
    _ key: Int, as type: T.Type = T.self, in context: @autoclosure () -> String
  ) throws(CBORError) -> T {
    try required(CBOR(key), as: T.self, in: context())
  }

  /// `optional` for an integer key such as a COSE label (RFC 8949 §5.3).
  package func optional<T: CBORDecodable>(
    _ key: Int, as type: T.Type = T.self, in context: @autoclosure () -> String
  ) throws(CBORError) -> T? {
    try optional(CBOR(key), as: T.self, in: context())
  }
}

extension CBOR {
  /// Text keys read as field names; other keys in diagnostic notation.
  fileprivate var fieldName: String {
    if case .textString(let text) = unwrapped { return text }
    return diagnosticNotation
  }
}
