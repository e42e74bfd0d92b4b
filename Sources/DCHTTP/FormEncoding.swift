/// `application/x-www-form-urlencoded` (WHATWG URL §5), the one codec of the package: OAuth
/// requests and responses (RFC 6749 Appendix B; OpenID4VCI's `FormParameters`), the query of an
/// OpenID4VP authorization request URI and the bodies posted to a `request_uri` or `response_uri`
/// (OpenID4VP 1.0 §5.10, §8.2).
package enum FormEncoding {
  /// The characters left as they are (RFC 3986 §2.3 unreserved); every other byte is
  /// percent-encoded, so the output reads the same as a form body and as a URI query.
  package static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      true
    default: false
    }
  }

  /// Encodes one name or value.
  package static func encode(_ text: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      if isUnreserved(byte) {
        out.append(byte)
      } else {
        out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// `name=value&...`, in the order given.
  package static func encode(_ fields: [(String, String)]) -> String {
    fields.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
  }

  /// Why a form did not decode.
  package enum Failure: Error, Equatable {
    /// A `%` not followed by two hex digits, or bytes that are not UTF-8 after decoding.
    case badPercentEncoding(String)
    /// A name given twice (RFC 6749 §3.1: parameters are sent at most once).
    case duplicate(String)
    /// More fields than `maximumFields`.
    case tooManyFields(Int)
  }

  /// Decodes `name=value&...`: `+` is a space, `%XX` a byte, the result UTF-8 (WHATWG URL
  /// §5.1). Empty segments are skipped; a segment without `=` is a name with an empty value.
  package static func decode(_ text: Substring, maximumFields: Int) throws(Failure) -> [(
    name: String, value: String
  )] {
    var fields: [(name: String, value: String)] = []
    var names: Set<String> = []
    for segment in text.split(separator: "&", omittingEmptySubsequences: true) {
      guard fields.count < maximumFields else { throw .tooManyFields(maximumFields) }
      let parts = segment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = try decodeComponent(parts[0])
      let value = parts.count > 1 ? try decodeComponent(parts[1]) : ""
      guard names.insert(name).inserted else { throw .duplicate(name) }
      fields.append((name, value))
    }
    return fields
  }

  package static func decodeComponent(_ text: Substring) throws(Failure) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      switch byte {
      case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
      case UInt8(ascii: "%"):
        guard let high = iterator.next().flatMap(hexValue),
          let low = iterator.next().flatMap(hexValue)
        else { throw .badPercentEncoding(String(text.prefix(40))) }
        bytes.append(high << 4 | low)
      default: bytes.append(byte)
      }
    }
    guard let string = String(validating: bytes, as: UTF8.self) else {
      throw .badPercentEncoding(String(text.prefix(40)))
    }
    return string
  }

  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
