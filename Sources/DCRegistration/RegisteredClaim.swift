public import DCCBOR
public import DCJSON

/// A claim value as a platform matcher compares it: text, integer, boolean, full-date or null.
///
/// These are the value kinds a DCQL `values` constraint can name (OpenID4VP 1.0 §6.4.1: strings,
/// integers and booleans) plus mdoc `full-date` (RFC 8943). Values that cannot be compared this way
/// (arrays, maps, byte strings such as portraits, floats, other tags) register as `null`: the
/// matcher then knows the claim exists but never matches it by value.
public enum RegisteredClaimValue: Sendable, Hashable {
  /// A text value.
  case string(String)
  /// An integer value.
  case integer(Int64)
  /// A boolean value.
  case bool(Bool)
  /// A calendar date (RFC 8943 `full-date`), written `YYYY-MM-DD`.
  case date(FullDate)
  /// A value that exists but cannot be compared.
  case null

  /// Maps a JSON claim (an SD-JWT VC payload member, RFC 8259) to a comparable value.
  ///
  /// Strings, integers and booleans keep their value; numbers with a fraction, arrays, objects
  /// and `null` register as `null` (DCQL compares only strings, integers and booleans).
  public init(_ json: JSONValue) {
    switch json {
    case .string(let text): self = .string(text)
    case .integer(let number): self = .integer(number)
    case .bool(let flag): self = .bool(flag)
    case .number(let number):
      if let exact = Int64(exactly: number) { self = .integer(exact) } else { self = .null }
    case .null, .array, .object: self = .null
    }
  }

  /// Maps an mdoc element value (ISO/IEC 18013-5 §7.2, `DataElementValue`) to a comparable value.
  ///
  /// Text, integers in `Int64` range, booleans and `full-date` (tag 1004 or 100, RFC 8943) keep
  /// their value; a `tdate` (tag 0, RFC 8949 §3.4.1) keeps its RFC 3339 text; byte strings (images),
  /// arrays, maps, floats and other tags register as `null`.
  public init(_ cbor: CBOR) {
    if let date = cbor.fullDate {
      self = .date(date)
      return
    }
    switch cbor.unwrapped {
    case .textString(let text): self = .string(text)
    case .boolean(let flag): self = .bool(flag)
    case .unsigned, .negative:
      if let number = cbor.int { self = .integer(Int64(number)) } else { self = .null }
    case .tagged(0, .textString(let text)): self = .string(text)
    default: self = .null
    }
  }

  /// The value as text, as matchers compare and display it; nil for `null`.
  public var text: String? {
    switch self {
    case .string(let text): text
    case .integer(let number): String(number)
    case .bool(let flag): flag ? "true" : "false"
    case .date(let date): date.description
    case .null: nil
    }
  }

  /// The value as JSON, as the CMWallet and Ubique matchers compare it; nil for `null`.
  var json: JSONValue? {
    switch self {
    case .string(let text): .string(text)
    case .integer(let number): .integer(number)
    case .bool(let flag): .bool(flag)
    case .date(let date): .string(date.description)
    case .null: nil
    }
  }
}

extension RegisteredClaimValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
  /// A text value from a literal.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An integer value from a literal.
  public init(integerLiteral value: Int64) { self = .integer(value) }
  /// A boolean value from a literal.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// `null` from a literal.
  public init(nilLiteral: ()) { self = .null }
}

/// One claim a credential registers: its value and how the picker shows it.
///
/// Display names and value overrides travel with the claim so that a claim can never be displayed
/// under another claim's name (wire-formats.md: multipaz `[displayName, displayValue, matchValue]`,
/// CMWallet `{ "value", "display" }`).
public struct RegisteredClaim: Sendable, Hashable {
  /// The value the matcher compares.
  public var value: RegisteredClaimValue
  /// The name the picker shows; nil shows the element identifier or last path component.
  package var displayName: String?
  /// The value the picker shows instead of `value` (a formatted date, "Yes" for `true`, "Photo"
  /// for a portrait); nil shows `value` as text, or nothing for `null`.
  package var displayValue: String?

  /// Creates a claim from a comparable value.
  public init(
    _ value: RegisteredClaimValue, displayName: String? = nil, displayValue: String? = nil
  ) {
    self.value = value
    self.displayName = displayName
    self.displayValue = displayValue
  }

  /// Creates a claim from an SD-JWT VC JSON value (see `RegisteredClaimValue.init(_:)` for JSON).
  public init(json: JSONValue, displayName: String? = nil, displayValue: String? = nil) {
    self.init(RegisteredClaimValue(json), displayName: displayName, displayValue: displayValue)
  }

  /// Creates a claim from an mdoc element value (see `RegisteredClaimValue.init(_:)` for CBOR).
  public init(cbor: CBOR, displayName: String? = nil, displayValue: String? = nil) {
    self.init(RegisteredClaimValue(cbor), displayName: displayName, displayValue: displayValue)
  }

  /// Flattens a JSON object of SD-JWT VC claims into claims by path: objects are walked, every
  /// other member (arrays included, which register as `null`) is a leaf (SD-JWT VC §3.2.2 claims,
  /// OpenID4VP 1.0 §7 claim paths).
  ///
  /// - Parameters:
  ///   - object: the disclosed claims, nested as in the payload; a non-object gives no claims.
  ///   - displayNames: display names by path, for the claims that have one.
  public static func flattening(
    _ object: JSONValue, displayNames: [[String]: String] = [:]
  ) -> [[String]: RegisteredClaim] {
    var claims: [[String]: RegisteredClaim] = [:]
    func walk(_ value: JSONValue, _ path: [String]) {
      if case .object(let members) = value {
        for member in members { walk(member.value, path + [member.key]) }
        return
      }
      claims[path] = RegisteredClaim(json: value, displayName: displayNames[path])
    }
    guard case .object = object else { return [:] }
    walk(object, [])
    return claims
  }
}
