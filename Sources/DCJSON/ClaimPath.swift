/// A concrete claims path pointer: object member names and array indices from the top level
/// down, selecting at most one value (OpenID4VP 1.0 §7, without `null`; RFC 9901 §7.2 selects
/// Disclosures by the claims they carry).
///
/// DCQL's pattern, which may also hold `null` for all elements of an array, is built on it
/// (`DCQL.ClaimsPathPointer`); every claim it selects has one of these as its location.
///
/// The readable dotted form (``dotted``) joins components with `.` and writes indices in decimal
/// (`address.street_address`, `nationalities.0`).
public struct ClaimPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral,
  ExpressibleByStringLiteral
{
  /// One step of a path: an object member name or an array index (RFC 8259 §4, §5).
  public enum Component: Sendable, Hashable, CustomStringConvertible,
    ExpressibleByStringLiteral, ExpressibleByIntegerLiteral
  {
    /// An object member name (RFC 8259 §4).
    case key(String)
    /// A zero-based array index (RFC 8259 §5).
    case index(Int)

    /// A member name from a string literal (RFC 8259 §4).
    public init(stringLiteral value: String) { self = .key(value) }

    /// An array index from an integer literal (RFC 8259 §5).
    public init(integerLiteral value: Int) { self = .index(value) }

    /// The name, or the index in decimal.
    public var description: String {
      switch self {
      case .key(let name): name
      case .index(let index): String(index)
      }
    }
  }

  /// The components from the top level down; empty for the payload itself.
  public var components: [Component]

  /// A path from its components (RFC 9901 §7.2).
  public init(_ components: [Component]) { self.components = components }

  /// A path from a literal list of components (RFC 9901 §7.2).
  public init(arrayLiteral elements: Component...) { components = elements }

  /// Reads the dotted form: segments split at `.`, a segment of decimal digits is an array
  /// index, anything else a member name; the empty string is the empty path (RFC 9901 §7.2).
  ///
  /// Names that contain `.` or consist only of digits cannot be written this way; build the
  /// path from components instead.
  public init(dotted: String) {
    guard !dotted.isEmpty else {
      components = []
      return
    }
    components = dotted.split(separator: ".", omittingEmptySubsequences: false).map { segment in
      if !segment.isEmpty, segment.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
        let index = Int(segment)
      {
        return .index(index)
      }
      return .key(String(segment))
    }
  }

  /// A path from its dotted form, as ``init(dotted:)`` reads it (RFC 9901 §7.2).
  public init(stringLiteral value: String) { self.init(dotted: value) }

  /// The dotted form, e.g. `address.street_address` or `nationalities.0` (RFC 9901 §7.2).
  public var dotted: String { components.map(\.description).joined(separator: ".") }

  /// The JSON form as compact text, e.g. `["address","street_address"]` (OpenID4VP 1.0 §7).
  public var description: String { json.serialized() }

  /// This path with one more component (RFC 9901 §7.2).
  package func appending(_ component: Component) -> ClaimPath {
    ClaimPath(components + [component])
  }

  /// True when `prefix` is this path or one of its ancestors (RFC 9901 §7.2).
  package func hasPrefix(_ prefix: ClaimPath) -> Bool {
    prefix.components.count <= components.count
      && zip(prefix.components, components).allSatisfy { $0 == $1 }
  }

  /// The path in its JSON form: strings for member names, integers for indices
  /// (OpenID4VP 1.0 §7).
  public var json: JSONValue {
    .array(
      components.map {
        switch $0 {
        case .key(let name): .string(name)
        case .index(let index): .integer(Int64(index))
        }
      })
  }

  /// The value this path selects in `json`, or nil when a member or index is missing
  /// (RFC 9901 §7.2).
  public func value(in json: JSONValue) -> JSONValue? {
    var current = json
    for component in components {
      switch component {
      case .key(let name):
        guard let next = current[name] else { return nil }
        current = next
      case .index(let index):
        guard let next = current[index] else { return nil }
        current = next
      }
    }
    return current
  }
}
