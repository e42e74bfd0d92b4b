import DCErrors

/// A type that turns itself into a CBOR data item (RFC 8949 §5, CBOR-based protocols).
package protocol CBOREncodable {
  /// The data item that represents this value (RFC 8949 §2).
  func cbor() -> CBOR
}

/// A type that reads itself from a CBOR data item, throwing `CBORError` (RFC 8949 §5.3).
package protocol CBORDecodable {
  /// Reads the value, naming the offending field on failure (RFC 8949 §5.3).
  init(cbor: CBOR) throws(CBORError)
}

/// A type that both encodes to and decodes from CBOR (RFC 8949 §5).
package typealias CBORCodable = CBOREncodable & CBORDecodable

/// A byte string model value; `[UInt8]` itself is not `CBORCodable`, since arrays of codable
/// elements already map to CBOR arrays (RFC 8949 §3.1, major type 2).
package struct ByteString: Sendable, Hashable, CBORCodable {
  /// The bytes (RFC 8949 §3.1).
  package var bytes: [UInt8]

  /// Wraps bytes (RFC 8949 §3.1).
  package init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Encodes as a byte string (RFC 8949 §3.1, major type 2).
  package func cbor() -> CBOR { .byteString(bytes) }

  /// Decodes a byte string (RFC 8949 §3.1, major type 2).
  package init(cbor: CBOR) throws(CBORError) {
    bytes = try cbor.requireBytes("")
  }
}

extension CBOR: CBORCodable {
  /// Returns the item itself (RFC 8949 §2).
  package func cbor() -> CBOR { self }

  /// Takes the item as it is (RFC 8949 §2).
  package init(cbor: CBOR) throws(CBORError) { self = cbor }
}

extension String: CBORCodable {
  /// Encodes as a text string (RFC 8949 §3.1, major type 3).
  package func cbor() -> CBOR { .textString(self) }

  /// Decodes a text string (RFC 8949 §3.1, major type 3).
  package init(cbor: CBOR) throws(CBORError) {
    self = try cbor.requireText("")
  }
}

extension Int: CBORCodable {
  /// Encodes as an unsigned or negative integer (RFC 8949 §3.1, major types 0 and 1).
  package func cbor() -> CBOR { CBOR(self) }

  /// Decodes an integer that fits in `Int` (RFC 8949 §3.1, major types 0 and 1).
  package init(cbor: CBOR) throws(CBORError) {
    self = try cbor.requireInt("")
  }
}

extension UInt64: CBORCodable {
  /// Encodes as an unsigned integer (RFC 8949 §3.1, major type 0).
  package func cbor() -> CBOR { .unsigned(self) }

  /// Decodes an unsigned integer (RFC 8949 §3.1, major type 0).
  package init(cbor: CBOR) throws(CBORError) {
    self = try cbor.requireUInt64("")
  }
}

extension Bool: CBORCodable {
  /// Encodes as false or true (RFC 8949 §3.3).
  package func cbor() -> CBOR { .boolean(self) }

  /// Decodes false or true (RFC 8949 §3.3).
  package init(cbor: CBOR) throws(CBORError) {
    self = try cbor.requireBool("")
  }
}

extension Double: CBORCodable {
  /// Encodes as a float in its shortest exact width (RFC 8949 §3.3, §4.1).
  package func cbor() -> CBOR { .double(self) }

  /// Decodes a float of any width, or an integer exactly representable as a double (RFC 8949 §3.3).
  package init(cbor: CBOR) throws(CBORError) {
    if let double = cbor.double {
      self = double
    } else if let int = cbor.int, let exact = Double(exactly: int) {
      self = exact
    } else {
      throw CBORError(.typeMismatch, reason: "expected a float, got \(cbor.kindName)")
    }
  }
}

extension EncodedCBOR: CBORCodable {
  /// Encodes as the kept bytes, spliced verbatim (RFC 8949 §3.4.5.1).
  package func cbor() -> CBOR { .encoded(self) }

  /// Keeps an `.encoded` item, or encodes any other item deterministically (RFC 8949 §4.2.1).
  package init(cbor: CBOR) throws(CBORError) {
    if case .encoded(let encoded) = cbor {
      self = encoded
    } else {
      self.init(encoding: cbor)
    }
  }
}

extension FullDate: CBORCodable {
  /// Encodes as tag 1004 full-date text (RFC 8943 §3).
  package func cbor() -> CBOR { CBOR.fullDate(self) }

  /// Decodes tag 1004 full-date text or a tag 100 day count (RFC 8943 §3).
  package init(cbor: CBOR) throws(CBORError) {
    switch cbor.unwrapped {
    case .tagged(1004, let content):
      guard let text = content.text else {
        throw CBORError(.invalidTagContent, reason: "tag 1004 content must be a text string")
      }
      self = try FullDate(text)
    case .tagged(100, let content):
      guard let days = content.int else {
        throw CBORError(.invalidTagContent, reason: "tag 100 content must be an integer")
      }
      self = try FullDate(daysSinceEpoch: days)
    default:
      throw CBORError(.typeMismatch, reason: "expected a tag 1004 full-date")
    }
  }
}

extension Array: CBOREncodable where Element: CBOREncodable {
  /// Encodes as an array of the elements' items (RFC 8949 §3.1, major type 4).
  package func cbor() -> CBOR { .array(map { $0.cbor() }) }
}

extension Array: CBORDecodable where Element: CBORDecodable {
  /// Decodes every member of an array item, naming the failing index (RFC 8949 §3.1, major type 4).
  package init(cbor: CBOR) throws(CBORError) {
    let items = try cbor.requireArray("")
    var result: [Element] = []
    result.reserveCapacity(items.count)
    for (index, item) in items.enumerated() {
      do {
        result.append(try Element(cbor: item))
      } catch {
        throw error.inContext("[\(index)]")
      }
    }
    self = result
  }
}

extension Dictionary: CBOREncodable where Key: CBOREncodable, Value: CBOREncodable {
  /// Encodes as a map; the deterministic encoder orders the keys (RFC 8949 §3.1, §4.2.1).
  package func cbor() -> CBOR {
    .map(CBORMap(map { ($0.key.cbor(), $0.value.cbor()) }))
  }
}

extension Dictionary: CBORDecodable where Key: CBORDecodable, Value: CBORDecodable {
  /// Decodes a map whose keys are unique after conversion (RFC 8949 §3.1, §5.6).
  package init(cbor: CBOR) throws(CBORError) {
    let map = try cbor.requireMap("")
    var result: [Key: Value] = [:]
    for (key, value) in map {
      let typedKey: Key
      do {
        typedKey = try Key(cbor: key)
      } catch {
        throw error.inContext("map key \(key.diagnosticNotation)")
      }
      do throws(CBORError) {
        guard result.updateValue(try Value(cbor: value), forKey: typedKey) == nil else {
          throw CBORError(.duplicateMapKey, reason: "map keys collide after conversion")
        }
      } catch {
        throw error.inContext("[\(key.diagnosticNotation)]")
      }
    }
    self = result
  }
}

extension Optional: CBOREncodable where Wrapped: CBOREncodable {
  /// Encodes nil as null (RFC 8949 §3.3).
  package func cbor() -> CBOR { self?.cbor() ?? .null }
}

extension Optional: CBORDecodable where Wrapped: CBORDecodable {
  /// Decodes null as nil (RFC 8949 §3.3).
  package init(cbor: CBOR) throws(CBORError) {
    self = cbor.isNull ? nil : try Wrapped(cbor: cbor)
  }
}
