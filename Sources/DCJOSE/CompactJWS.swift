public import DCCrypto
import DCEncoding
public import DCJSON

/// JWS creation (RFC 7515 §5.1) in the compact serialization (RFC 7515 §7.1).
public enum JWS {
  /// Signs `payload` and returns `b64(header).b64(payload).b64(signature)` (RFC 7515 §5.1, §7.1).
  ///
  /// `alg` is set from the signer's curve when the header has none, and must match it when
  /// present (RFC 7518 §3.4). The header is checked as a verifier would check it.
  public static func sign(
    payload: [UInt8], protectedHeader: JSONValue = .object([]), signer: any Signer
  ) throws(JOSEError) -> String {
    try sign(
      payload: payload, protectedHeader: protectedHeader, signer: signer,
      understoodCriticalParameters: [])
  }

  /// Signs like ``sign(payload:protectedHeader:signer:)``, allowing a `crit` that lists only
  /// `understoodCriticalParameters` (a profile's extension parameters, e.g. JAdES `sigT`).
  package static func sign(
    payload: [UInt8], protectedHeader: JSONValue, signer: any Signer,
    understoodCriticalParameters: Set<String>
  ) throws(JOSEError) -> String {
    let (encodedHeader, algorithm) = try encodeProtectedHeader(
      protectedHeader, signer: signer, understood: understoodCriticalParameters)
    let encodedPayload = Base64URL.encode(payload)
    var jws = encodedHeader
    jws.reserveCapacity(encodedHeader.utf8.count + encodedPayload.utf8.count + 180)
    jws += "."
    jws += encodedPayload
    let signature = try algorithm.sign(Array(jws.utf8), with: signer)
    jws += "."
    jws += Base64URL.encode(signature)
    return jws
  }

  /// The `x5c` header value for DER certificates, leaf first, in standard base64 (RFC 7515 §4.1.6).
  public static func x5c(_ certificates: [[UInt8]]) -> JSONValue {
    JOSEHeader.x5cValue(certificates)
  }

  /// Validates a header to be signed, puts `alg` first if absent, and base64url-encodes it.
  static func encodeProtectedHeader(
    _ header: JSONValue, signer: any Signer, unprotected: JSONValue? = nil,
    understood: Set<String> = []
  ) throws(JOSEError) -> (String, JWSAlgorithm) {
    guard case .object(let members) = header else {
      throw JOSEError(.invalidHeader, "protected header must be a JSON object")
    }
    let algorithm = JWSAlgorithm(curve: signer.curve)
    var final = header
    if let alg = header["alg"] {
      guard let name = alg.string else { throw JOSEError(.invalidHeader, "alg must be a string") }
      let requested = try JWSAlgorithm(name: name)
      guard requested == algorithm else {
        throw JOSEError(
          .algorithmKeyMismatch,
          "header alg \(name) does not match the signer's \(signer.curve.jwkName) key")
      }
    } else {
      final = .object([("alg", .string(algorithm.rawValue))] + members)
    }
    try JOSEHeader.checkExtensions(
      protected: final, unprotected: unprotected, understood: understood)
    try JOSEHeader.checkDisjoint(protected: final, unprotected: unprotected)
    _ = try JOSEHeader.x5c(in: final)
    _ = try JOSEHeader.jwk(in: final)
    return (Base64URL.encode(final.serializedBytes()), algorithm)
  }
}

/// A parsed JWS in the compact serialization (RFC 7515 §7.1), keeping the exact bytes received.
///
/// Parsing checks the structure, the header and the algorithm; `verifySignature(with:)` then
/// checks the signature over the received `signingInput`, never over a re-encoding.
public struct CompactJWS: Sendable, Hashable {
  /// The text parsed.
  public let compactSerialization: String
  /// The JOSE header, a JSON object (RFC 7515 §4).
  public let protectedHeader: JSONValue
  /// The header's UTF-8 bytes as decoded from the first part (RFC 7515 §5.2 step 3).
  package let protectedHeaderBytes: [UInt8]
  /// The received ASCII `b64(header).b64(payload)` that the signature covers (RFC 7515 §5.2 step 8).
  package let signingInput: [UInt8]
  /// The payload bytes (RFC 7515 §5.2 step 6).
  public let payload: [UInt8]
  /// The raw `R || S` signature bytes (RFC 7518 §3.4).
  package let signature: [UInt8]
  /// The signature algorithm from `alg` (RFC 7515 §4.1.1).
  public let algorithm: JWSAlgorithm
  /// The certificate chain from `x5c`, DER, leaf first (RFC 7515 §4.1.6); checked by the caller.
  public let x5c: [[UInt8]]?
  /// The public key embedded as `jwk` (RFC 7515 §4.1.3); trusting it is the caller's decision.
  public let jwk: JWK?

  /// Parses `header.payload.signature` (RFC 7515 §5.2 steps 1-7, §7.1).
  ///
  /// - Throws: `malformedJWS` for structure, `unsupportedAlgorithm` for an `alg` other than
  ///   ES256/384/512 (including `none`), `invalidHeader` for bad or critical parameters.
  public init(_ compact: String) throws(JOSEError) {
    try self.init(compact, understoodCriticalParameters: [])
  }

  /// Parses like ``init(_:)``, accepting a `crit` (RFC 7515 §4.1.11) that lists only names in
  /// `understoodCriticalParameters`: the caller processes those parameters (JAdES `sigT`, ETSI
  /// TS 119 182-1) before trusting the payload.
  package init(_ compact: String, understoodCriticalParameters: Set<String>) throws(JOSEError) {
    // Split on the ASCII dot over UTF-8 rather than Characters: grapheme breaking made this
    // split the largest cost of reading a 25 KB token (a Status List JWT, issue 15). Valid
    // compact JWS text is ASCII (RFC 7515 §7.1), so the parts are the same.
    let parts = compact.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
      .map { Substring($0) }
    guard parts.count == 3 else {
      throw JOSEError(.malformedJWS, "compact JWS must have 3 parts, found \(parts.count)")
    }
    let header = try JOSEHeader.decodeProtected(parts[0], code: .malformedJWS)
    do {
      payload = try Base64URL.decode(String(parts[1]))
      signature = try Base64URL.decode(String(parts[2]))
    } catch {
      throw JOSEError(.malformedJWS, "payload or signature: \(error.reason)", underlying: error)
    }
    try JOSEHeader.checkExtensions(
      protected: header.value, unprotected: nil, understood: understoodCriticalParameters)
    guard let alg = try JOSEHeader.string("alg", in: header.value) else {
      throw JOSEError(.invalidHeader, "JWS header has no alg")
    }
    algorithm = try JWSAlgorithm(name: alg)
    x5c = try JOSEHeader.x5c(in: header.value)
    jwk = try JOSEHeader.jwk(in: header.value)
    _ = try JOSEHeader.string("kid", in: header.value)
    _ = try JOSEHeader.string("typ", in: header.value)
    _ = try JOSEHeader.string("cty", in: header.value)
    compactSerialization = compact
    protectedHeader = header.value
    protectedHeaderBytes = header.bytes
    signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
  }

  /// The key ID, `kid` (RFC 7515 §4.1.4).
  public var keyID: String? { protectedHeader["kid"]?.string }

  /// The media type of the whole JWS, `typ` (RFC 7515 §4.1.9).
  public var type: String? { protectedHeader["typ"]?.string }

  /// The payload's media type, `cty` (RFC 7515 §4.1.10).
  public var contentType: String? { protectedHeader["cty"]?.string }

  /// Verifies the signature over the received signing input (RFC 7515 §5.2 step 8).
  ///
  /// - Throws: `algorithmKeyMismatch` when the key's curve is not the one `alg` names,
  ///   `invalidSignature` when the signature has the wrong length or does not verify.
  public func verifySignature(with key: ECPublicKey) throws(JOSEError) {
    try algorithm.verify(signature: signature, signingInput: signingInput, key: key)
  }

  /// Verifies with the key from `keys` whose `kid` equals this JWS's `kid` (RFC 7515 §4.1.4).
  public func verifySignature(with keys: JWKSet) throws(JOSEError) {
    guard let kid = keyID else { throw JOSEError(.keyNotFound, "JWS has no kid to look up") }
    try verifySignature(with: try keys.key(withID: kid).publicKey())
  }
}
