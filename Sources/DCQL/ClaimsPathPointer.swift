package import DCJSON

/// One component of a claims path pointer (OpenID4VP 1.0 §7).
public enum ClaimPathComponent: Sendable, Hashable {
  /// Selects the member with this key of an object (OpenID4VP 1.0 §7).
  case key(String)
  /// Selects the element at this non-negative index of an array (OpenID4VP 1.0 §7).
  case index(Int)
  /// Selects every element of an array; JSON `null` (OpenID4VP 1.0 §7).
  case allElements
}

/// A claims path pointer: a non-empty list of components that selects claims in a credential (OpenID4VP 1.0 §7).
public struct ClaimsPathPointer: Sendable, Hashable, CustomStringConvertible {
  /// The components, never empty.
  public let components: [ClaimPathComponent]

  /// Creates a pointer; an empty list or a negative index throws `invalidPath` (OpenID4VP 1.0 §7).
  package init(_ components: [ClaimPathComponent]) throws(DCQLError) {
    guard !components.isEmpty else {
      throw DCQLError(.invalidPath, "a claims path pointer is non-empty")
    }
    for (i, c) in components.enumerated() {
      if case .index(let n) = c, n < 0 {
        throw DCQLError(.invalidPath, at: "[\(i)]", "an array index is non-negative")
      }
    }
    self.components = components
    self.concreteComponents = Self.concrete(components)
  }

  /// The components as a concrete path when there is no `null`, computed once.
  private let concreteComponents: [ClaimPath.Component]?

  /// Parses a pointer from its JSON form: strings, non-negative integers and nulls (OpenID4VP 1.0 §7).
  package init(json: ClaimValue) throws(DCQLError) {
    guard case .array(let elements) = json else {
      throw DCQLError(.invalidPath, "a claims path pointer is an array")
    }
    var components = [ClaimPathComponent]()
    components.reserveCapacity(elements.count)
    for (i, e) in elements.enumerated() {
      switch e {
      case .string(let s): components.append(.key(s))
      case .null: components.append(.allElements)
      case .integer(let n) where n >= 0 && n <= Int64(Int32.max):
        components.append(.index(Int(n)))
      case .integer:
        throw DCQLError(.invalidPath, at: "[\(i)]", "an array index is a non-negative integer")
      default:
        throw DCQLError(
          .invalidPath, at: "[\(i)]", "a component is a string, a non-negative integer or null")
      }
    }
    try self.init(components)
  }

  /// The pointer in its JSON form.
  package var json: ClaimValue {
    .array(
      components.map {
        switch $0 {
        case .key(let k): .string(k)
        case .index(let i): .integer(Int64(i))
        case .allElements: .null
        }
      })
  }

  /// The JSON form as text, for messages.
  public var description: String { json.compactDescription }

  /// The claims this pointer selects in `root`, each with its concrete path (OpenID4VP 1.0 §7.2).
  ///
  /// Where §7.2 says to abort with an error (a key applied to a non-object, an index or `null` to a
  /// non-array, or an empty selection), the result is empty: the credential does not match.
  package func select(in root: ClaimValue) -> [SelectedClaim] {
    if let concrete = concreteComponents { return selectOne(concrete, in: root) }
    var current: [(value: ClaimValue, path: [ClaimPath.Component])] = [(root, [])]
    for component in components {
      var next: [(value: ClaimValue, path: [ClaimPath.Component])] = []
      next.reserveCapacity(current.count)
      for (value, path) in current {
        switch component {
        case .key(let key):
          guard case .object(let members) = value else { return [] }
          if let member = members[key] { next.append((member, path + [.key(key)])) }
        case .index(let index):
          guard case .array(let elements) = value else { return [] }
          if index < elements.count { next.append((elements[index], path + [.index(index)])) }
        case .allElements:
          guard case .array(let elements) = value else { return [] }
          for (i, element) in elements.enumerated() { next.append((element, path + [.index(i)])) }
        }
      }
      if next.isEmpty { return [] }
      current = next
    }
    return current.map {
      SelectedClaim(path: ClaimPath($0.path), value: $0.value)
    }
  }
}

extension ClaimsPathPointer {
  /// The components as a concrete path when there is no `null`, the common case.
  fileprivate static func concrete(_ components: [ClaimPathComponent])
    -> [ClaimPath.Component]?
  {
    var out = [ClaimPath.Component]()
    out.reserveCapacity(components.count)
    for c in components {
      switch c {
      case .key(let k): out.append(.key(k))
      case .index(let i): out.append(.index(i))
      case .allElements: return nil
      }
    }
    return out
  }

  /// §7.2 for a pointer without `null`: at most one claim, no intermediate selections.
  fileprivate func selectOne(_ path: [ClaimPath.Component], in root: ClaimValue)
    -> [SelectedClaim]
  {
    var value = root
    for component in path {
      switch (component, value) {
      case (.key(let key), .object(let members)):
        guard let member = members[key] else { return [] }
        value = member
      case (.index(let index), .array(let elements)):
        guard index < elements.count else { return [] }
        value = elements[index]
      default:
        return []
      }
    }
    return [SelectedClaim(path: ClaimPath(path), value: value)]
  }
}

/// One claim a claims path pointer selected: where it is and its value (OpenID4VP 1.0 §7.2).
package struct SelectedClaim: Sendable, Hashable {
  /// The concrete path of the claim.
  package let path: ClaimPath
  /// The claim's value.
  package let value: ClaimValue
}

extension ClaimValue: CustomStringConvertible {
  /// Compact JSON-like text, object members in key order.
  public var description: String { compactDescription }

  /// Compact JSON-like text for messages; object members in key order.
  var compactDescription: String {
    switch self {
    case .string(let s): return "\"\(s)\""
    case .integer(let i): return String(i)
    case .number(let d): return String(d)
    case .bool(let b): return b ? "true" : "false"
    case .null: return "null"
    case .array(let a): return "[" + a.map(\.compactDescription).joined(separator: ",") + "]"
    case .object(let o):
      return "{"
        + o.keys.sorted().map { "\"\($0)\":\(o[$0]?.compactDescription ?? "null")" }
        .joined(separator: ",") + "}"
    }
  }
}
