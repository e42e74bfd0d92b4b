/// A CBOR data item in the generic data model.
///
/// RFC 8949 §2 (data model) and §3 (major types). Equality is structural: `.encoded` values
/// compare by their bytes, and floats of different widths are different cases.
public enum CBOR: Sendable, Hashable {
  /// An unsigned integer, major type 0 (RFC 8949 §3.1).
  case unsigned(UInt64)
  /// A negative integer whose value is `-1 - n`, major type 1 (RFC 8949 §3.1).
  case negative(UInt64)
  /// A byte string, major type 2 (RFC 8949 §3.1).
  case byteString([UInt8])
  /// A UTF-8 text string, major type 3 (RFC 8949 §3.1).
  case textString(String)
  /// An array of data items, major type 4 (RFC 8949 §3.1).
  case array([CBOR])
  /// A map of ordered key/value pairs, major type 5 (RFC 8949 §3.1).
  case map(CBORMap)
  /// A tag number and its content, major type 6 (RFC 8949 §3.4).
  indirect case tagged(UInt64, CBOR)
  /// A simple value other than false, true, null and undefined, major type 7 (RFC 8949 §3.3).
  case simple(UInt8)
  /// The simple values false and true (RFC 8949 §3.3).
  case boolean(Bool)
  /// The simple value null (RFC 8949 §3.3).
  case null
  /// The simple value undefined (RFC 8949 §3.3).
  case undefined
  /// A half-precision float as its IEEE 754 binary16 bit pattern (RFC 8949 §3.3).
  case half(UInt16)
  /// A single-precision float (RFC 8949 §3.3).
  case float(Float)
  /// A double-precision float (RFC 8949 §3.3).
  case double(Double)
  /// An already-encoded data item whose bytes the encoder splices verbatim (RFC 8949 §3.4.5.1 idea).
  indirect case encoded(EncodedCBOR)
}

extension CBOR {
  /// Creates an integer item from a Swift `Int` (RFC 8949 §3.1, major types 0 and 1).
  public init(_ int: Int) {
    if int >= 0 {
      self = .unsigned(UInt64(int))
    } else {
      // RFC 8949 §3.1: major type 1 carries -1 - n; ~int == -1 - int without overflow.
      self = .negative(UInt64(~int))
    }
  }

  /// Creates an unsigned integer item (RFC 8949 §3.1, major type 0).
  public init(_ value: UInt64) {
    self = .unsigned(value)
  }

  /// Creates a byte string item (RFC 8949 §3.1, major type 2).
  public init(bytes: [UInt8]) {
    self = .byteString(bytes)
  }

  /// The item itself, or the decoded value of an `.encoded` item (RFC 8949 §3.4.5.1).
  package var unwrapped: CBOR {
    var current = self
    while case .encoded(let inner) = current { current = inner.value }
    return current
  }

  /// The value as an `Int`, or nil when not an integer or out of range (RFC 8949 §3.1).
  public var int: Int? {
    switch self {
    case .unsigned(let n): return n <= UInt64(Int.max) ? Int(n) : nil
    case .negative(let n): return n <= UInt64(Int.max) ? -1 - Int(n) : nil
    case .encoded(let inner): return inner.value.int
    default: return nil
    }
  }

  /// The value of an unsigned integer item (RFC 8949 §3.1, major type 0).
  public var uint64: UInt64? {
    switch self {
    case .unsigned(let n): return n
    case .encoded(let inner): return inner.value.uint64
    default: return nil
    }
  }

  /// The string of a text string item (RFC 8949 §3.1, major type 3).
  public var text: String? {
    switch self {
    case .textString(let s): return s
    case .encoded(let inner): return inner.value.text
    default: return nil
    }
  }

  /// The bytes of a byte string item (RFC 8949 §3.1, major type 2).
  public var bytes: [UInt8]? {
    switch self {
    case .byteString(let b): return b
    case .encoded(let inner): return inner.value.bytes
    default: return nil
    }
  }

  /// The value of a false or true item (RFC 8949 §3.3).
  public var bool: Bool? {
    switch self {
    case .boolean(let b): return b
    case .encoded(let inner): return inner.value.bool
    default: return nil
    }
  }

  /// The members of an array item (RFC 8949 §3.1, major type 4).
  public var array: [CBOR]? {
    switch self {
    case .array(let a): return a
    case .encoded(let inner): return inner.value.array
    default: return nil
    }
  }

  /// The pairs of a map item (RFC 8949 §3.1, major type 5).
  public var map: CBORMap? {
    switch self {
    case .map(let m): return m
    case .encoded(let inner): return inner.value.map
    default: return nil
    }
  }

  /// Whether the item is the simple value null (RFC 8949 §3.3).
  public var isNull: Bool {
    if case .null = unwrapped { return true }
    return false
  }

  /// The tag number of a tagged item (RFC 8949 §3.4).
  public var tag: UInt64? {
    if case .tagged(let t, _) = unwrapped { return t }
    return nil
  }

  /// The content of a tagged item (RFC 8949 §3.4).
  public var tagValue: CBOR? {
    if case .tagged(_, let v) = unwrapped { return v }
    return nil
  }

  /// The value of a float item of any width as a `Double` (RFC 8949 §3.3).
  public var double: Double? {
    switch unwrapped {
    case .half(let bits): return Half.double(fromBits: bits)
    case .float(let f): return Double(f)
    case .double(let d): return d
    default: return nil
    }
  }

  /// Looks up a text string key in a map item (RFC 8949 §3.1, major type 5).
  public subscript(_ key: String) -> CBOR? {
    map?[key]
  }

  /// Looks up an integer key in a map item, as used for COSE labels (RFC 8949 §3.1, major type 5).
  public subscript(_ key: Int) -> CBOR? {
    map?[key: CBOR(key)]
  }

  /// Looks up any key in a map item (RFC 8949 §3.1, major type 5).
  public subscript(key key: CBOR) -> CBOR? {
    map?[key: key]
  }
}

extension CBOR: ExpressibleByIntegerLiteral {
  /// Creates an integer item from a literal (RFC 8949 §3.1).
  public init(integerLiteral value: Int) {
    self.init(value)
  }
}

extension CBOR: ExpressibleByStringLiteral {
  /// Creates a text string item from a literal (RFC 8949 §3.1, major type 3).
  public init(stringLiteral value: String) {
    self = .textString(value)
  }
}

extension CBOR: ExpressibleByBooleanLiteral {
  /// Creates a false or true item from a literal (RFC 8949 §3.3).
  public init(booleanLiteral value: Bool) {
    self = .boolean(value)
  }
}

extension CBOR: ExpressibleByArrayLiteral {
  /// Creates an array item from a literal (RFC 8949 §3.1, major type 4).
  public init(arrayLiteral elements: CBOR...) {
    self = .array(elements)
  }
}

extension CBOR: ExpressibleByDictionaryLiteral {
  /// Creates a map item from a literal, keeping the written order (RFC 8949 §3.1, major type 5).
  public init(dictionaryLiteral elements: (CBOR, CBOR)...) {
    self = .map(CBORMap(elements))
  }
}

extension CBOR: ExpressibleByNilLiteral {
  /// Creates the null item from `nil` (RFC 8949 §3.3).
  public init(nilLiteral: ()) {
    self = .null
  }
}

extension CBOR: ExpressibleByFloatLiteral {
  /// Creates a double-precision float item from a literal (RFC 8949 §3.3).
  public init(floatLiteral value: Double) {
    self = .double(value)
  }
}
