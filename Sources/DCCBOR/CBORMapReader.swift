/// A view over a decoded CBOR map for reading one model structure (RFC 8949 §5.3), so that
/// every structure is read the same way: `required(key, as:)`, `optional(key, as:)`, nested
/// maps and embedded (tag 24) items, with errors naming the structure, the key and the clause
/// of the specification that defines it.
///
/// Keys not read are allowed: a structure is extensible unless its specification says
/// otherwise (ISO 18013-5 §8.1: receivers ignore unknown map keys), and `unknownKeys` lists
/// them for a caller that wants to know. Map keys are unique once decoded (`CBORDecoder` rejects
/// a repeated key, RFC 8949 §5.6); `uniqueTexts(_:)` reads an array that the specification uses
/// as a set and rejects a repeated member.
package struct CBORMapReader: Sendable {
  /// The map being read.
  package let map: CBORMap
  /// The structure's name, prefixed to every error (`DeviceRequest`, `MSO.validityInfo`).
  package let structure: String
  /// Where the structure is defined (`ISO 18013-5 §8.3.2.1.2.1`), appended to every error.
  package let clause: String
  /// The (text) keys the structure defines; any other key is unknown but allowed.
  package let knownKeys: [String]

  /// Reads `item` as the map of `structure`, or a `typeMismatch` naming it (RFC 8949 §3.1).
  package init(
    _ item: CBOR, structure: String, clause: String, knownKeys: [String] = []
  ) throws(CBORError) {
    guard let map = item.map else {
      throw CBORError(
        .typeMismatch,
        reason: "\(structure): expected a map, got \(item.kindName) (\(clause))")
    }
    self.init(map: map, structure: structure, clause: clause, knownKeys: knownKeys)
  }

  /// A reader over an already decoded map.
  package init(map: CBORMap, structure: String, clause: String, knownKeys: [String] = []) {
    self.map = map
    self.structure = structure
    self.clause = clause
    self.knownKeys = knownKeys
  }

  /// The keys present that the structure does not define, in map order (allowed, not read).
  package var unknownKeys: [CBOR] {
    map.keys.filter { key in key.text.map { !knownKeys.contains($0) } ?? true }
  }

  /// The error for `key`, its reason naming the structure, key and clause.
  package func error(_ code: CBORError.Code, _ key: String, _ message: String) -> CBORError {
    CBORError(code, reason: "\(structure).\(key): \(message) (\(clause))")
  }

  /// The raw item for `key`, or `missingField` (RFC 8949 §5.3).
  package func item(_ key: String) throws(CBORError) -> CBOR {
    guard let value = map[key] else { throw error(.missingField, key, "missing required field") }
    return value
  }

  /// The value for `key` decoded as `T`, or `missingField` / the decoding error, both naming
  /// the structure, key and clause (RFC 8949 §5.3).
  package func required<T: CBORDecodable>(_ key: String, as type: T.Type = T.self)
    throws(CBORError) -> T
  {
    try decode(item(key), key, as: T.self)
  }

  /// The value for `key` decoded as `T`, or nil when the key is absent (RFC 8949 §5.3).
  package func optional<T: CBORDecodable>(_ key: String, as type: T.Type = T.self)
    throws(CBORError) -> T?
  {
    guard let value = map[key] else { return nil }
    return try decode(value, key, as: T.self)
  }

  /// A reader over the map under `key`, named `structure.key` (RFC 8949 §3.1).
  package func requiredMap(_ key: String, clause: String? = nil, knownKeys: [String] = [])
    throws(CBORError) -> CBORMapReader
  {
    try nested(item(key), key, clause: clause, knownKeys: knownKeys)
  }

  /// A reader over the map under `key` when present (RFC 8949 §3.1).
  package func optionalMap(_ key: String, clause: String? = nil, knownKeys: [String] = [])
    throws(CBORError) -> CBORMapReader?
  {
    guard let value = map[key] else { return nil }
    return try nested(value, key, clause: clause, knownKeys: knownKeys)
  }

  /// The embedded item under `key` (`#6.24(bstr .cbor X)`), decoded once with its bytes kept
  /// exactly (RFC 8949 §3.4.5.1).
  package func requiredTag24(_ key: String) throws(CBORError) -> EncodedCBOR {
    try tag24(item(key), key)
  }

  /// The embedded item under `key` when present (RFC 8949 §3.4.5.1).
  package func optionalTag24(_ key: String) throws(CBORError) -> EncodedCBOR? {
    guard let value = map[key] else { return nil }
    return try tag24(value, key)
  }

  /// An array of text strings used as a set, or `duplicateMapKey` naming the repeated member
  /// (a set-valued field; RFC 8949 §5.6 applied to its members).
  package func uniqueTexts(_ key: String) throws(CBORError) -> [String]? {
    guard let texts = try optional(key, as: [String].self) else { return nil }
    var seen = Set<String>()
    for text in texts where !seen.insert(text).inserted {
      throw error(.duplicateMapKey, key, "\(text) appears twice")
    }
    return texts
  }

  private func decode<T: CBORDecodable>(_ value: CBOR, _ key: String, as type: T.Type)
    throws(CBORError) -> T
  {
    do {
      return try T(cbor: value)
    } catch {
      throw CBORError(
        error.code, offset: error.offset,
        reason: "\(structure).\(key): \(error.reason) (\(clause))", underlying: error)
    }
  }

  private func nested(_ value: CBOR, _ key: String, clause: String?, knownKeys: [String])
    throws(CBORError) -> CBORMapReader
  {
    guard let inner = value.map else {
      throw error(.typeMismatch, key, "expected a map, got \(value.kindName)")
    }
    return CBORMapReader(
      map: inner, structure: "\(structure).\(key)", clause: clause ?? self.clause,
      knownKeys: knownKeys)
  }

  private func tag24(_ value: CBOR, _ key: String) throws(CBORError) -> EncodedCBOR {
    guard case .tagged(24, _) = value.unwrapped else {
      throw error(.typeMismatch, key, "expected tag 24, got \(value.kindName)")
    }
    do {
      return try EncodedCBOR(tag24: value)
    } catch {
      throw CBORError(
        error.code, offset: error.offset,
        reason: "\(structure).\(key): \(error.reason) (\(clause))", underlying: error)
    }
  }
}
