package import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
package import Foundation

/// Demonstrating Proof of Possession (RFC 9449): the client side, creating DPoP proofs.
///
/// A proof is a JWT signed by the client's DPoP key and sent in the `DPoP` header of one HTTP
/// request: to the token endpoint (binding the tokens to the key) and with every request that
/// presents the access token (then with `ath`).
package enum DPoP {
  /// The `typ` of a DPoP proof (RFC 9449 §4.2).
  package static let type = "dpop+jwt"

  /// Creates a DPoP proof (RFC 9449 §4.2).
  ///
  /// - Parameters:
  ///   - signer: the DPoP key; its public key goes in the `jwk` header, `alg` follows its curve
  ///     (ES256 for P-256, the algorithm HAIP 1.0 requires).
  ///   - method: the request's method, `htm` (RFC 9110 §9), e.g. `POST`.
  ///   - uri: the request's target URI; `htu` is it without query and fragment (RFC 9449 §4.2).
  ///   - issuedAt: `iat`.
  ///   - nonce: the server's latest `DPoP-Nonce`, when it sent one (RFC 9449 §8, §9).
  ///   - accessToken: the access token presented with the request; `ath` is its hash
  ///     (RFC 9449 §4.2, §7).
  ///   - random: the source of the 128-bit `jti`.
  /// - Returns: the compact JWS for the `DPoP` header.
  package static func proof(
    signer: any Signer, method: String, uri: String, issuedAt: Date = Date(),
    nonce: String? = nil, accessToken: String? = nil, random: any RandomSource = SecureRandom()
  ) throws(OpenID4VCIError) -> String {
    guard let htu = htu(uri) else {
      throw OpenID4VCIError(.dpopMalformed, "the request URI is not an absolute http(s) URI")
    }
    guard !method.isEmpty else {
      throw OpenID4VCIError(.dpopMalformed, "the request method is empty")
    }
    let header: JSONValue = .object([
      ("typ", .string(type)), ("alg", .string(JWSAlgorithm(curve: signer.curve).rawValue)),
      ("jwk", JWK(publicKey: signer.publicKey).json),
    ])
    // RFC 9449 §4.2: jti with enough entropy to be unique (128 bits here, §11.1).
    var claims: [(key: String, value: JSONValue)] = [
      ("jti", .string(Base64URL.encode(random.bytes(count: 16)))),
      ("htm", .string(method)), ("htu", .string(htu)),
      ("iat", ProofJWTReader.numericDate(issuedAt)),
    ]
    if let nonce { claims.append(("nonce", .string(nonce))) }
    if let accessToken { claims.append(("ath", .string(accessTokenHash(accessToken)))) }
    return try ProofJWTReader.sign(header: header, claims: .object(claims), signer: signer)
  }

  /// `ath`: base64url of the SHA-256 of the access token's ASCII bytes (RFC 9449 §4.2).
  package static func accessTokenHash(_ accessToken: String) -> String {
    Base64URL.encode(SHA256.hash(data: Array(accessToken.utf8)))
  }

  /// The `htu` for a request URI: the URI without query and fragment (RFC 9449 §4.2), or nil
  /// when it is not an absolute `http` or `https` URI with a host.
  package static func htu(_ uri: String) -> String? {
    guard var components = URLComponents(string: uri),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.host, !host.isEmpty
    else { return nil }
    components.query = nil
    components.fragment = nil
    return components.string
  }

  /// The form two `htu` values are compared in (RFC 9449 §4.3 step 9): query and fragment
  /// dropped, then RFC 3986 §6.2.2 syntax-based normalisation (case of scheme and host, case of
  /// percent-encodings, unreserved characters decoded, dot segments removed) and §6.2.3
  /// scheme-based normalisation (default port dropped, empty path as `/`).
  ///
  /// Returns nil for a URI that is not absolute `http` or `https` with a host.
  package static func normalizedURI(_ uri: String) -> String? {
    guard let components = URLComponents(string: uri),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.percentEncodedHost?.lowercased(), !host.isEmpty
    else { return nil }
    var result = scheme + "://"
    if let user = components.percentEncodedUser {
      result += normalizePercentEncoding(user)
      if let password = components.percentEncodedPassword {
        result += ":" + normalizePercentEncoding(password)
      }
      result += "@"
    }
    result += normalizePercentEncoding(host)
    if let port = components.port, !(scheme == "http" && port == 80),
      !(scheme == "https" && port == 443)
    {
      result += ":\(port)"
    }
    let path = removeDotSegments(normalizePercentEncoding(components.percentEncodedPath))
    result += path.isEmpty ? "/" : path
    return result
  }

  /// RFC 3986 §6.2.2.1-2: hex digits of percent-encodings in upper case; encodings of unreserved
  /// characters decoded.
  static func normalizePercentEncoding(_ text: String) -> String {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
      if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count,
        let high = Hex.value(of: bytes[i + 1]), let low = Hex.value(of: bytes[i + 2])
      {
        let value = high << 4 | low
        if PKCE.isUnreserved(value) {
          out.append(value)
        } else {
          out.append(contentsOf: Array(String(format: "%%%02X", value).utf8))
        }
        i += 3
      } else {
        out.append(bytes[i])
        i += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// RFC 3986 §5.2.4, over whole segments.
  static func removeDotSegments(_ path: String) -> String {
    var output: [Substring] = []
    let segments = path.split(separator: "/", omittingEmptySubsequences: false)
    for (index, segment) in segments.enumerated() {
      let isLast = index == segments.count - 1
      switch segment {
      case ".":
        if isLast { output.append("") }
      case "..":
        if output.count > 1 { output.removeLast() }
        if isLast { output.append("") }
      default:
        output.append(segment)
      }
    }
    return output.joined(separator: "/")
  }
}
