public import DCJSON
package import Foundation

/// A JSON value as a credential exposes its claims or a query carries its values (OpenID4VP 1.0 §6.3, §7).
///
/// Integers and other numbers are kept apart so that `values` can compare by type (OpenID4VP 1.0 §6.3).
public enum ClaimValue: Sendable, Hashable {
  /// A JSON string.
  case string(String)
  /// A JSON number without fraction or exponent that fits in 64 bits.
  case integer(Int64)
  /// Any other JSON number.
  case number(Double)
  /// A JSON boolean.
  case bool(Bool)
  /// JSON `null`.
  case null
  /// A JSON array.
  case array([ClaimValue])
  /// A JSON object.
  case object([String: ClaimValue])

  /// Parses JSON text, top-level scalars included, with the strict parser of the `JSON` module
  /// (RFC 8259): integers stay integers, other numbers are doubles.
  package init(jsonData: Data) throws(DCQLError) {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: jsonData, limits: JSONLimits(maxDepth: Self.maximumDepth))
    } catch {
      throw DCQLError(.invalidJSON, "not JSON: \(error.reason)", underlying: error)
    }
    self.init(value)
  }

  /// The same JSON value in DCQL's model (RFC 8259); object member order is not kept, DCQL
  /// selects members by name (OpenID4VP 1.0 §7).
  public init(_ json: JSONValue) {
    switch json {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .integer(let i): self = .integer(i)
    case .number(let d): self = .number(d)
    case .string(let s): self = .string(s)
    case .array(let elements): self = .array(elements.map(ClaimValue.init))
    case .object(let members):
      var object = [String: ClaimValue](minimumCapacity: members.count)
      for (key, value) in members { object[key] = ClaimValue(value) }
      self = .object(object)
    }
  }

  /// This value as a `JSONValue`, object members in key order (RFC 8259).
  package var jsonValue: JSONValue {
    switch self {
    case .null: .null
    case .bool(let b): .bool(b)
    case .integer(let i): .integer(i)
    case .number(let d): .number(d)
    case .string(let s): .string(s)
    case .array(let elements): .array(elements.map(\.jsonValue))
    case .object(let members):
      .object(members.keys.sorted().map { ($0, members[$0]?.jsonValue ?? .null) })
    }
  }

  /// The string, when this is a string.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The members, when this is an object.
  package var objectValue: [String: ClaimValue]? {
    if case .object(let o) = self { return o }
    return nil
  }

  /// The elements, when this is an array.
  package var arrayValue: [ClaimValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// Bounds recursion well above any real credential or query.
  static let maximumDepth = 256

  /// Equality under `values` (OpenID4VP 1.0 §6.3): type and value both match, so `"1"` is not `1`;
  /// integers and other numbers are one JSON type and compare by value.
  func matchesQueryValue(_ other: ClaimValue) -> Bool {
    switch (self, other) {
    case (.integer(let a), .number(let b)), (.number(let b), .integer(let a)):
      return Double(exactly: a) == b
    default:
      return self == other
    }
  }
}

extension ClaimValue: ExpressibleByStringLiteral {
  /// A string value from a literal.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension ClaimValue: ExpressibleByIntegerLiteral {
  /// An integer value from a literal.
  public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension ClaimValue: ExpressibleByFloatLiteral {
  /// A number value from a literal.
  public init(floatLiteral value: Double) { self = .number(value) }
}

extension ClaimValue: ExpressibleByBooleanLiteral {
  /// A boolean value from a literal.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension ClaimValue: ExpressibleByNilLiteral {
  /// JSON `null` from `nil`.
  public init(nilLiteral: ()) { self = .null }
}

extension ClaimValue: ExpressibleByArrayLiteral {
  /// An array value from a literal.
  public init(arrayLiteral elements: ClaimValue...) { self = .array(elements) }
}

extension ClaimValue: ExpressibleByDictionaryLiteral {
  /// An object value from a literal; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, ClaimValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}
