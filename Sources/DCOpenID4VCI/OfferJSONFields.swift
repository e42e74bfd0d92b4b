package import DCJSON
import Foundation

/// Typed reads of JSON members for offers and metadata, each failing with `code` and a reason
/// that names the member. Unknown members are never read (OpenID4VCI 1.0 §4.1.1, §12.2.4: "The
/// Wallet MUST ignore any unrecognized parameters").
struct Fields {
  let object: JSONValue
  let context: String
  let code: OpenID4VCIErrorCode

  init(_ value: JSONValue, _ context: String, _ code: OpenID4VCIErrorCode) throws(OpenID4VCIError) {
    guard case .object = value else { throw OpenID4VCIError(code, "\(context) is not an object") }
    object = value
    self.context = context
    self.code = code
  }

  func fail(_ reason: String) -> OpenID4VCIError { OpenID4VCIError(code, "\(context): \(reason)") }

  func has(_ name: String) -> Bool { object[name] != nil }

  func optionalString(_ name: String) throws(OpenID4VCIError) -> String? {
    guard let value = object[name] else { return nil }
    guard let string = value.string else { throw fail("\(name) is not a string") }
    return string
  }

  func string(_ name: String) throws(OpenID4VCIError) -> String {
    guard let string = try optionalString(name) else { throw fail("\(name) is missing") }
    return string
  }

  func nonEmptyString(_ name: String) throws(OpenID4VCIError) -> String {
    let string = try string(name)
    guard !string.isEmpty else { throw fail("\(name) is empty") }
    return string
  }

  func optionalBool(_ name: String) throws(OpenID4VCIError) -> Bool? {
    guard let value = object[name] else { return nil }
    guard let bool = value.bool else { throw fail("\(name) is not a boolean") }
    return bool
  }

  func optionalInteger(_ name: String) throws(OpenID4VCIError) -> Int? {
    guard let value = object[name] else { return nil }
    guard case .integer(let integer) = value, let int = Int(exactly: integer) else {
      throw fail("\(name) is not an integer")
    }
    return int
  }

  func optionalObject(_ name: String) throws(OpenID4VCIError) -> Fields? {
    guard let value = object[name] else { return nil }
    return try Fields(value, "\(context).\(name)", code)
  }

  /// An array of strings; `nonEmpty` and `unique` as the member's definition requires.
  func optionalStrings(_ name: String, unique: Bool = false) throws(OpenID4VCIError) -> [String]? {
    guard let value = object[name] else { return nil }
    guard let array = value.array, !array.isEmpty else {
      throw fail("\(name) is not a non-empty array")
    }
    var strings: [String] = []
    for element in array {
      guard let string = element.string else { throw fail("\(name) holds a non-string") }
      if unique, strings.contains(string) { throw fail("\(name) repeats '\(string)'") }
      strings.append(string)
    }
    return strings
  }

  func optionalObjects(_ name: String) throws(OpenID4VCIError) -> [Fields]? {
    guard let value = object[name] else { return nil }
    guard let array = value.array, !array.isEmpty else {
      throw fail("\(name) is not a non-empty array")
    }
    var result: [Fields] = []
    for (index, element) in array.enumerated() {
      result.append(try Fields(element, "\(context).\(name)[\(index)]", code))
    }
    return result
  }

  func optionalURL(_ name: String, _ policy: URLPolicy) throws(OpenID4VCIError) -> URL? {
    guard let text = try optionalString(name) else { return nil }
    do {
      return try policy.url(text, "\(context).\(name)")
    } catch {
      throw OpenID4VCIError(code, "\(context): \(name): \(error.reason)", underlying: error)
    }
  }

  func url(_ name: String, _ policy: URLPolicy) throws(OpenID4VCIError) -> URL {
    guard let url = try optionalURL(name, policy) else { throw fail("\(name) is missing") }
    return url
  }

  func optionalIdentifier(_ name: String, _ policy: URLPolicy) throws(OpenID4VCIError)
    -> IssuerIdentifier?
  {
    guard let text = try optionalString(name) else { return nil }
    do {
      return try IssuerIdentifier(text, policy: policy)
    } catch {
      throw OpenID4VCIError(code, "\(context): \(name): \(error.reason)", underlying: error)
    }
  }

  func identifier(_ name: String, _ policy: URLPolicy) throws(OpenID4VCIError) -> IssuerIdentifier {
    guard let identifier = try optionalIdentifier(name, policy) else {
      throw fail("\(name) is missing")
    }
    return identifier
  }
}

/// Builds a JSON object, leaving out absent members: nil and `null` alike (no member of an
/// offer or metadata object is ever `null`, and `nil` written where a `JSONValue` is expected
/// is the literal `null`).
package struct ObjectBuilder {
  package private(set) var members: [(key: String, value: JSONValue)] = []

  package init() {}

  package mutating func set(_ key: String, _ value: JSONValue?) {
    if let value, !value.isNull { members.append((key, value)) }
  }

  package mutating func set(_ key: String, _ value: String?) {
    set(key, value.map { JSONValue.string($0) })
  }

  package mutating func set(_ key: String, _ value: Bool?) {
    set(key, value.map { JSONValue.bool($0) })
  }

  package mutating func set(_ key: String, _ value: Int?) {
    set(key, value.map { JSONValue.integer(Int64($0)) })
  }

  package mutating func set(_ key: String, strings: [String]?) {
    set(key, strings.map { JSONValue.array($0.map { .string($0) }) })
  }

  package var value: JSONValue { .object(members) }
}

/// Parses JSON text of at most `maximumLength` bytes with the JSON module's limits; both
/// failures are `invalidJSON`, the size checked before any parsing.
func parseJSON(
  _ bytes: some Collection<UInt8>, _ what: String, maximumLength: Int
) throws(OpenID4VCIError) -> JSONValue {
  guard bytes.count <= maximumLength else {
    throw OpenID4VCIError(.invalidJSON, "\(what) is larger than \(maximumLength) bytes")
  }
  do {
    return try JSONValue(parsing: bytes)
  } catch {
    throw OpenID4VCIError(.invalidJSON, "\(what) is not JSON: \(error.reason)", underlying: error)
  }
}
