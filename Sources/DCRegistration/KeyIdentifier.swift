import DCEncoding
import DCJSON

/// An X.509 key identifier (the `keyIdentifier` of an AuthorityKeyIdentifier or
/// SubjectKeyIdentifier, RFC 5280 §4.2.1.1, §4.2.1.2) as the platforms register it.
///
/// Apple takes them as `Data` in `supportedAuthorityKeyIdentifiers` and
/// `supportedIssuerKeyIdentifiers` (IdentityDocumentServices); the multipaz matcher as `bstr` in
/// `issuerIdentifiers` and `readerIdentifiers` (wire-formats.md, "multipaz matcher").
public struct KeyIdentifier: Sendable, Hashable, CustomStringConvertible {
  /// The identifier's bytes.
  public let bytes: [UInt8]

  /// Wraps identifier bytes; emptiness and length are checked when a plan or registry is made.
  public init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Decodes an identifier from base64, as SDKs and configuration files carry them.
  ///
  /// Accepts the standard alphabet with or without `=` padding and the URL-safe alphabet
  /// (RFC 4648 §4, §5); rejects mixed alphabets, misplaced padding, whitespace, impossible lengths
  /// and non-zero unused bits, so that a typo never becomes a different identifier.
  ///
  /// - Throws: `RegistrationError` with code `invalidBase64`.
  public init(base64 text: String) throws(RegistrationError) {
    var body = Substring(text)
    var padding = 0
    while body.hasSuffix("=") {
      body = body.dropLast()
      padding += 1
    }
    let standard = body.contains("+") || body.contains("/")
    let urlSafe = body.contains("-") || body.contains("_")
    // RFC 4648 §3.2: padding completes the last group of four, at most two characters of it.
    guard padding <= 2, padding == 0 || text.utf8.count % 4 == 0, !(standard && urlSafe) else {
      throw RegistrationError(.invalidBase64, "'\(text)' is not base64")
    }
    let translated = String(body).replacingPlusAndSlash()
    do {
      self.bytes = try Base64URL.decode(translated)
    } catch {
      throw RegistrationError(
        .invalidBase64, "'\(text)' is not base64: \(error.reason)", underlying: error)
    }
  }

  /// The identifier as standard padded base64 (RFC 4648 §4), the form `Data.base64EncodedString()`
  /// gives and SDK users pass in.
  package var base64: String {
    var text = Base64URL.encode(bytes)
    text = String(
      text.map { character -> Character in
        switch character {
        case "-": "+"
        case "_": "/"
        default: character
        }
      })
    while text.utf8.count % 4 != 0 { text += "=" }
    return text
  }

  /// The identifier as standard padded base64.
  public var description: String { base64 }
}

extension String {
  /// Maps the standard base64 alphabet's `+` and `/` to base64url's `-` and `_` (RFC 4648 §5).
  fileprivate func replacingPlusAndSlash() -> String {
    String(
      map { character -> Character in
        switch character {
        case "+": "-"
        case "/": "_"
        default: character
        }
      })
  }
}
