/// A JSON value (RFC 8259) whose objects keep their members in the order they were read or built.
///
/// JOSE headers, JWT claims, SD-JWT payloads and OpenID4VP requests are all modelled with this
/// one type. Integers that fit in 64 bits are kept exactly in `integer`; every other number is a
/// `number` (IEEE 754 double, RFC 8259 §6).
public enum JSONValue: Sendable, Hashable {
  /// `null` (RFC 8259 §3).
  case null
  /// `true` or `false` (RFC 8259 §3).
  case bool(Bool)
  /// A number written without fraction or exponent that fits in `Int64` (RFC 8259 §6).
  case integer(Int64)
  /// Any other number, as a double (RFC 8259 §6).
  case number(Double)
  /// A string (RFC 8259 §7).
  case string(String)
  /// An array (RFC 8259 §5).
  case array([JSONValue])
  /// An object with members in order; keys are unique (RFC 8259 §4, enforced by the parser).
  case object([(key: String, value: JSONValue)])

  /// Structural equality; object members compare in order, and numbers compare by value, so
  /// `1` equals `1.0` (RFC 8259 §6 gives numbers no distinct integer type).
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.integer(let a), .number(let b)), (.number(let b), .integer(let a)):
      Int64(exactly: b) == a
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: false
    }
  }

  /// Hashes consistently with `==`.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let b): hasher.combine(b)
    case .integer(let i): hasher.combine(i)
    case .number(let d):
      if let exact = Int64(exactly: d) { hasher.combine(exact) } else { hasher.combine(d) }
    case .string(let s): hasher.combine(s)
    case .array(let a): hasher.combine(a)
    case .object(let members):
      hasher.combine(members.count)
      for member in members {
        hasher.combine(member.key)
        hasher.combine(member.value)
      }
    }
  }
}

// MARK: - Accessors

extension JSONValue {
  /// The member named `key` of an object, or nil for a missing key or a non-object (RFC 8259 §4).
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The element at `index` of an array, or nil when out of range or not an array (RFC 8259 §5).
  public subscript(index: Int) -> JSONValue? {
    guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }

  /// The string, if this is a string (RFC 8259 §7).
  public var string: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The boolean, if this is `true` or `false` (RFC 8259 §3).
  public var bool: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  /// The value as an `Int`, if it is a number with an exact integer value (RFC 8259 §6).
  public var int: Int? {
    switch self {
    case .integer(let i): return Int(exactly: i)
    case .number(let d): return Int(exactly: d)
    default: return nil
    }
  }

  /// The value as a `Double`, if it is a number (RFC 8259 §6).
  public var double: Double? {
    switch self {
    case .integer(let i): return Double(i)
    case .number(let d): return d
    default: return nil
    }
  }

  /// The elements, if this is an array (RFC 8259 §5).
  public var array: [JSONValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// The members in order, if this is an object (RFC 8259 §4).
  public var object: [(key: String, value: JSONValue)]? {
    if case .object(let members) = self { return members }
    return nil
  }

  /// True for `null` (RFC 8259 §3).
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The object's keys in order, or empty for a non-object (RFC 8259 §4).
  package var keys: [String] { object?.map(\.key) ?? [] }

  /// Returns this object with `key` set to `value`: replaced in place if present, else appended.
  ///
  /// A non-object is returned unchanged (RFC 8259 §4 keeps names unique within an object).
  public func setting(_ key: String, to value: JSONValue) -> JSONValue {
    guard case .object(var members) = self else { return self }
    if let index = members.firstIndex(where: { $0.key == key }) {
      members[index].value = value
    } else {
      members.append((key, value))
    }
    return .object(members)
  }

  /// Returns this object without the member `key` (RFC 8259 §4); a non-object is returned as is.
  public func removing(_ key: String) -> JSONValue {
    guard case .object(let members) = self else { return self }
    return .object(members.filter { $0.key != key })
  }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
  /// `nil` is JSON `null` (RFC 8259 §3).
  public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
  /// A boolean literal (RFC 8259 §3).
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  /// An integer literal, kept exact (RFC 8259 §6).
  public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
  /// A floating-point literal (RFC 8259 §6).
  public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
  /// A string literal (RFC 8259 §7).
  public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
  /// An array literal (RFC 8259 §5).
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  /// An object literal; members keep the literal's order (RFC 8259 §4). Repeated keys keep the last.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    var value = JSONValue.object([])
    for (key, member) in elements { value = value.setting(key, to: member) }
    self = value
  }
}

extension JSONValue: CustomStringConvertible {
  /// The compact serialization (RFC 8259).
  public var description: String { serialized() }
}
