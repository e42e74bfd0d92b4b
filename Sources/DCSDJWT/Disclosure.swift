import DCEncoding
import DCJOSE
public import DCJSON

/// A Disclosure: the salt, the claim name (absent for array elements) and the value of one
/// selectively disclosable claim, kept with the exact base64url text it arrived as (RFC 9901 §4.2).
///
/// Its digest is computed over that text (RFC 9901 §4.2.3), so the text is never re-encoded.
public struct Disclosure: Sendable, Hashable, CustomStringConvertible {
  /// The base64url text as received or created (RFC 9901 §4.2.1).
  public let encoded: String
  /// The salt (RFC 9901 §4.2.1).
  package let salt: String
  /// The claim name for an object property, nil for an array element (RFC 9901 §4.2.1, §4.2.2).
  public let name: String?
  /// The claim value, which may itself hold `_sd` digests (RFC 9901 §4.2.1, §4.2.6).
  public let value: JSONValue

  /// Parses a Disclosure from its base64url text (RFC 9901 §4.2, §7.1 step 3.2.2).
  ///
  /// - Throws: `invalidDisclosure` when the text is not strict base64url of a JSON array of
  ///   `[salt, name, value]` or `[salt, value]` with string salt and name, or when the name is
  ///   `_sd` or `...`.
  public init(_ encoded: String) throws(SDJWTError) {
    let bytes: [UInt8]
    do {
      bytes = try Base64URL.decode(encoded)
    } catch {
      throw SDJWTError(
        .invalidDisclosure, "disclosure is not base64url: \(error.reason)", underlying: error)
    }
    let json: JSONValue
    do {
      json = try JSONValue(parsing: bytes)
    } catch {
      throw SDJWTError(
        .invalidDisclosure, "disclosure is not JSON: \(error.reason)", underlying: error)
    }
    guard let elements = json.array else {
      throw SDJWTError(.invalidDisclosure, "disclosure is not a JSON array")
    }
    guard let salt = elements.first?.string else {
      throw SDJWTError(.invalidDisclosure, "disclosure salt must be a string")
    }
    switch elements.count {
    case 3:
      guard let name = elements[1].string else {
        throw SDJWTError(.invalidDisclosure, "disclosure claim name must be a string")
      }
      try Self.checkName(name)
      self.name = name
      value = elements[2]
    case 2:
      name = nil
      value = elements[1]
    default:
      throw SDJWTError(
        .invalidDisclosure, "disclosure must have 2 or 3 elements, found \(elements.count)")
    }
    self.salt = salt
    self.encoded = encoded
  }

  /// Creates a Disclosure and encodes `[salt, name, value]` (or `[salt, value]`) as compact JSON
  /// in base64url (RFC 9901 §4.2.1, §4.2.2).
  ///
  /// - Throws: `invalidDisclosure` when the name is `_sd` or `...` (RFC 9901 §4.2.1).
  package init(salt: String, name: String?, value: JSONValue) throws(SDJWTError) {
    if let name { try Self.checkName(name) }
    var elements: [JSONValue] = [.string(salt)]
    if let name { elements.append(.string(name)) }
    elements.append(value)
    self.salt = salt
    self.name = name
    self.value = value
    encoded = Base64URL.encode(JSONValue.array(elements).serializedBytes())
  }

  /// RFC 9901 §4.2.1: these names are reserved for the digest structures themselves.
  private static func checkName(_ name: String) throws(SDJWTError) {
    guard name != "_sd", name != "..." else {
      throw SDJWTError(.invalidDisclosure, "disclosure claim name must not be \(name)")
    }
  }

  /// True for an array element Disclosure (RFC 9901 §4.2.2).
  package var isArrayElement: Bool { name == nil }

  /// base64url of the hash of the ASCII Disclosure text (RFC 9901 §4.2.3).
  package func digest(_ algorithm: SDHashAlgorithm = .sha256) -> String {
    algorithm.base64URLDigest(ofASCII: encoded)
  }

  /// The Disclosure text (RFC 9901 §4.2).
  public var description: String { encoded }
}
