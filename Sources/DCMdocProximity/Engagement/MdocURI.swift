import DCCBOR
import DCEncoding
import DCJSON

extension DeviceEngagement {
  /// The URI scheme of QR engagement (ISO 18013-5 §8.2.2.3).
  package static let uriScheme = "mdoc"

  /// The most characters an `mdoc:` URI may have: the scheme, the colon and the base64url of
  /// ``maxByteCount`` bytes.
  package static let maxURILength = uriScheme.utf8.count + 1 + (maxByteCount * 4 + 2) / 3

  /// `mdoc:` followed by the base64url encoding, without padding, of the DeviceEngagement's bytes
  /// (ISO 18013-5 §8.2.2.3): what the QR code holds.
  public var uri: String { Self.uriScheme + ":" + Base64URL.encode(encoded.bytes) }

  /// Reads an `mdoc:` URI (ISO 18013-5 §8.2.2.3).
  ///
  /// The scheme is matched without regard to case (RFC 3986 §3.1); the rest must be unpadded
  /// base64url and nothing else (no whitespace, query or fragment).
  ///
  /// - Throws: `tooLarge` past the length of a 4096-byte engagement in base64url, `invalidURI`,
  ///   or the engagement's own errors.
  public init(uri: String) throws(MdocProximityError) {
    let utf8 = Array(uri.utf8)
    guard utf8.count <= Self.maxURILength else {
      throw MdocProximityError(
        .tooLarge, "mdoc: URI of \(utf8.count) characters exceeds the limit of \(Self.maxURILength)"
      )
    }
    let prefix = Array((Self.uriScheme + ":").utf8)
    guard utf8.count > prefix.count,
      zip(utf8, prefix).allSatisfy({ $0 | 0x20 == $1 | 0x20 }),
      utf8[prefix.count - 1] == UInt8(ascii: ":")
    else {
      throw MdocProximityError(
        .invalidURI, "expected \"mdoc:\" followed by the engagement (ISO 18013-5 §8.2.2.3)")
    }
    let bytes: [UInt8]
    do {
      bytes = try Base64URL.decode(ascii: utf8[prefix.count...])
    } catch {
      throw MdocProximityError(
        .invalidURI,
        "the mdoc: URI's engagement is not unpadded base64url (ISO 18013-5 §8.2.2.3): \(error.reason)",
        underlying: error)
    }
    try self.init(bytes: bytes)
  }
}
