// Parsing shared by the DPoP proof (RFC 9449 §4.2) and key proof (OpenID4VCI 1.0 §F.1) verifiers:
// the header is read first so that `typ`, `alg` and the key members fail with their own codes
// before the JWS is parsed and its signature checked.
import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import Foundation

/// A proof JWT split into its checked parts.
struct ProofJWT {
  let header: JSONValue
  let jws: CompactJWS
  let claims: JWTClaims
}

/// Private key members of any JWK key type (RFC 7518 §6.2.2, §6.3.2, §6.4).
let privateJWKMembers = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

enum ProofJWTReader {
  /// Decodes the protected header without checking anything else (RFC 7515 §5.2 steps 1-4).
  static func header(
    _ compact: String, malformed: OpenID4VCIErrorCode
  ) throws(OpenID4VCIError) -> JSONValue {
    let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      throw OpenID4VCIError(malformed, "a proof JWT has 3 parts, found \(parts.count)")
    }
    let header: JSONValue
    do {
      header = try JSONValue(parsing: try Base64URL.decode(String(parts[0])))
    } catch {
      throw OpenID4VCIError(malformed, "the JWT header is not base64url JSON", underlying: error)
    }
    guard case .object = header else {
      throw OpenID4VCIError(malformed, "the JWT header is not a JSON object")
    }
    return header
  }

  /// Checks `typ` and that `alg` is one of `allowed` (never `none`, never symmetric).
  static func checkTypeAndAlgorithm(
    _ header: JSONValue, type expectedType: String, allowed: Set<JWSAlgorithm>,
    typeCode: OpenID4VCIErrorCode, algorithmCode: OpenID4VCIErrorCode
  ) throws(OpenID4VCIError) -> JWSAlgorithm {
    // RFC 7515 §4.1.9: media types compare case-insensitively; an `application/` prefix may be
    // present and is dropped before comparing.
    guard var type = header["typ"]?.string?.lowercased() else {
      throw OpenID4VCIError(typeCode, "the JWT has no typ; expected \(expectedType)")
    }
    if type.hasPrefix("application/") { type.removeFirst("application/".count) }
    guard type == expectedType else {
      throw OpenID4VCIError(typeCode, "typ is \(type), expected \(expectedType)")
    }
    guard let name = header["alg"]?.string else {
      throw OpenID4VCIError(algorithmCode, "the JWT has no alg")
    }
    guard let algorithm = JWSAlgorithm(rawValue: name), allowed.contains(algorithm) else {
      throw OpenID4VCIError(algorithmCode, "alg \(name) is not allowed")
    }
    return algorithm
  }

  /// Parses the JWS and its claims; the header has been checked already.
  static func parse(
    _ compact: String, header: JSONValue, malformed: OpenID4VCIErrorCode
  ) throws(OpenID4VCIError) -> ProofJWT {
    let jws: CompactJWS
    let claims: JWTClaims
    do {
      jws = try CompactJWS(compact)
      claims = try JWTClaims(payload: jws.payload)
    } catch {
      throw OpenID4VCIError(malformed, "not a well-formed JWT: \(error.reason)", underlying: error)
    }
    return ProofJWT(header: header, jws: jws, claims: claims)
  }

  /// The `iat` claim as an integer-or-fractional NumericDate (RFC 7519 §2), required.
  static func issuedAt(_ claims: JWTClaims, malformed: OpenID4VCIErrorCode)
    throws(OpenID4VCIError) -> Date
  {
    guard let iat = claims.iat else {
      throw OpenID4VCIError(malformed, "the JWT has no iat")
    }
    return iat
  }

  /// Checks `iat` lies in `[now - maxAge, now + leeway]`.
  static func checkIssuedAt(
    _ iat: Date, now: Date, maxAge: TimeInterval, leeway: TimeInterval,
    code: OpenID4VCIErrorCode
  ) throws(OpenID4VCIError) {
    if iat > now.addingTimeInterval(leeway) {
      throw OpenID4VCIError(
        code, "iat lies \(iat.timeIntervalSince(now).rounded(.towardZero)) s in the future")
    }
    if iat < now.addingTimeInterval(-maxAge) {
      throw OpenID4VCIError(code, "iat is \(now.timeIntervalSince(iat).rounded(.towardZero)) s old")
    }
  }

  /// The current time as a whole NumericDate (RFC 7519 §2).
  static func numericDate(_ date: Date) -> JSONValue {
    .integer(Int64(date.timeIntervalSince1970.rounded(.down)))
  }

  /// Signs a JWT, mapping the JOSE error.
  static func sign(header: JSONValue, claims: JSONValue, signer: any Signer)
    throws(OpenID4VCIError) -> String
  {
    do {
      return try JWS.sign(
        payload: claims.serializedBytes(), protectedHeader: header, signer: signer)
    } catch {
      throw OpenID4VCIError(.signingFailed, "signing the proof failed", underlying: error)
    }
  }
}
