import DCCBOR
import DCCOSE
public import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
public import DCX509
public import Foundation

/// A Status List Token (draft-ietf-oauth-status-list §5): a Status List signed by its issuer,
/// as a JWT (§5.1, `typ: statuslist+jwt`) or a CWT (§5.2, COSE_Sign1 with `typ` (16)
/// `application/statuslist+cwt`).
///
/// Reading a token checks its structure and claims and decompresses the list under
/// ``StatusListLimits``; it does not check the signature, which
/// ``verifySignature(trustAnchors:at:fallbackChain:)`` (an `x5c` / `x5chain` chain to anchors) or
/// ``verifySignature(publicKey:)`` does. The bytes read are kept: the signature is checked over
/// them, never over a re-encoding.
public struct StatusListToken: Sendable, Hashable {
  /// The two forms of a token.
  public enum Format: String, Sendable, Hashable, CaseIterable {
    /// A JWT (draft §5.1).
    case jwt
    /// A CWT in a COSE_Sign1 (draft §5.2).
    case cwt

    /// The media type of the token, sent as `Accept` when fetching it (draft §8.1, §14.7):
    /// `application/statuslist+jwt` or `application/statuslist+cwt`.
    public var mediaType: String {
      switch self {
      case .jwt: "application/statuslist+jwt"
      case .cwt: "application/statuslist+cwt"
      }
    }
  }

  /// The JWT `typ` header (draft §5.1): the media type without `application/` (RFC 7515 §4.1.9).
  package static let jwtType = "statuslist+jwt"
  /// The CWT `typ` header (16) value (draft §5.2, RFC 9596).
  package static let cwtType = "application/statuslist+cwt"

  /// The CWT claim keys (draft §5.2, RFC 8392 §4, draft §14.4 for 65533/65534).
  enum CWTKey {
    static let iss = 1
    static let sub = 2
    static let exp = 4
    static let iat = 6
    static let statusList = 65533
    static let ttl = 65534
    /// The COSE header `typ` (RFC 9596 §2).
    static let typ = 16
  }

  /// The form this token was read or built in.
  public let format: Format
  /// `sub`: the URI the token is published at; a verifier checks it equals the Referenced
  /// Token's `uri` (draft §5.1, §8.3 step 2).
  public let subject: String
  /// `iss`, when present (optional in the draft).
  public let issuer: String?
  /// `iat`: when the token was issued (draft §5.1, required).
  public let issuedAt: Date
  /// `exp`: when the token expires (draft §5.1, recommended).
  public let expiresAt: Date?
  /// `ttl`: the most seconds the token may be cached before fetching a new one (draft §5.1,
  /// recommended; a positive number).
  public let timeToLive: Int?
  /// The Status List, decompressed.
  public let statusList: StatusList
  /// `status_list.aggregation_uri`, when present (draft §4.1, §9).
  public let aggregationURI: String?
  /// The certificate chain from the JWT's `x5c` or the CWT's `x5chain` (33), DER, leaf first;
  /// empty when the token has none.
  public let certificateChain: [[UInt8]]
  /// The token as read or built: the JWT's ASCII text, or the CWT's COSE_Sign1 bytes.
  public let encoded: [UInt8]

  let signed: Signed

  enum Signed: Sendable, Hashable {
    case jwt(CompactJWS)
    case cwt(COSESign1)
  }

  // MARK: Reading

  /// Reads a token in either form: a compact JWS text (three base64url parts, optionally
  /// surrounded by whitespace) or COSE_Sign1 bytes.
  ///
  /// - Throws: ``StatusListError`` (`malformed`, `tooLarge`, `unsupportedBits`,
  ///   `decompressionFailed`).
  public init(
    bytes: [UInt8], maximumDecompressedSize: Int = StatusListLimits.maximumDecompressedSize
  )
    throws(StatusListError)
  {
    guard bytes.count <= StatusListLimits.maximumTokenSize else {
      throw StatusListError(
        .tooLarge,
        "the token is \(bytes.count) bytes, more than \(StatusListLimits.maximumTokenSize)")
    }
    if let text = Self.compactText(bytes) {
      try self.init(jwt: text, maximumDecompressedSize: maximumDecompressedSize)
    } else {
      try self.init(cwt: bytes, maximumDecompressedSize: maximumDecompressedSize)
    }
  }

  /// The form of a Status List Token when `bytes` are one by their header alone: a compact JWS
  /// whose `typ` is `statuslist+jwt`, or a COSE_Sign1 whose protected `typ` (16) is
  /// `application/statuslist+cwt`; nil otherwise. The list is not decompressed, so a caller can
  /// tell "not a Status List Token" from "a Status List Token that fails" (a bomb, say).
  public static func format(of bytes: [UInt8]) -> Format? {
    guard bytes.count <= StatusListLimits.maximumTokenSize else { return nil }
    if let text = compactText(bytes) {
      return (try? CompactJWS(text))?.type == jwtType ? .jwt : nil
    }
    guard var item = try? CBORDecoder(limits: cborLimits).decode(bytes) else { return nil }
    if case .tagged(61, let inner) = item { item = inner }
    guard let sign1 = try? COSESign1(cbor: item),
      sign1.headers.protected[key: CBOR(CWTKey.typ)]?.text == cwtType
    else { return nil }
    return .cwt
  }

  /// The CBOR limits for a token: its size, shallow nesting, few items (the list is one bstr).
  static let cborLimits = CBORDecoder.Limits(
    maxDepth: 16, maxItemLength: StatusListLimits.maximumTokenSize, maxTotalItems: 1 << 16)

  /// The compact JWS text when `bytes` look like one: only base64url characters and exactly
  /// two dots, after trimming ASCII whitespace.
  static func compactText(_ bytes: [UInt8]) -> String? {
    func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }),
      let last = bytes.lastIndex(where: { !isSpace($0) })
    else { return nil }
    let trimmed = bytes[first...last]
    var dots = 0
    for byte in trimmed {
      switch byte {
      case UInt8(ascii: "."): dots += 1
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
        continue
      default: return nil
      }
    }
    return dots == 2 ? String(decoding: trimmed, as: UTF8.self) : nil
  }

  /// Reads a Status List Token JWT (draft §5.1): `typ` `statuslist+jwt`, `sub`, `iat`,
  /// optional `exp`, `ttl`, `iss`, and `status_list {bits, lst, aggregation_uri?}` with `lst`
  /// the base64url zlib bytes.
  public init(jwt: String, maximumDecompressedSize: Int = StatusListLimits.maximumDecompressedSize)
    throws(StatusListError)
  {
    guard jwt.utf8.count <= StatusListLimits.maximumTokenSize else {
      throw StatusListError(
        .tooLarge,
        "the token is \(jwt.utf8.count) bytes, more than \(StatusListLimits.maximumTokenSize)")
    }
    let jws: CompactJWS
    do {
      jws = try CompactJWS(jwt)
    } catch {
      throw StatusListError(.malformed, "not a JWS: \(error.reason)", underlying: error)
    }
    guard jws.type == Self.jwtType else {
      throw StatusListError(
        .malformed, "the JWT typ is \(jws.type.map { "'\($0)'" } ?? "absent"), not \(Self.jwtType)")
    }
    let claims = try Self.jwtClaims(jws)
    guard let subject = claims["sub"]?.string else {
      throw StatusListError(.malformed, "the JWT has no string sub")
    }
    guard let list = claims["status_list"], case .object = list else {
      throw StatusListError(.malformed, "the JWT has no status_list object")
    }
    let (bits, compressed, aggregation) = try Self.jwtStatusList(list)
    format = .jwt
    self.subject = subject
    issuer = try Self.optionalJSONString(claims, "iss", "")
    guard let iat = try Self.jsonDate(claims, "iat", required: true) else {
      throw StatusListError(.malformed, "the JWT has no iat")
    }
    issuedAt = iat
    expiresAt = try Self.jsonDate(claims, "exp", required: false)
    timeToLive = try Self.positive(claims["ttl"].map { $0.int ?? -1 }, "ttl")
    aggregationURI = aggregation
    certificateChain = jws.x5c ?? []
    encoded = Array(jwt.utf8)
    signed = .jwt(jws)
    statusList = try StatusList(
      bits: bits, compressed: compressed, maximumSize: maximumDecompressedSize)
  }

  /// Reads a Status List Token CWT (draft §5.2): a COSE_Sign1 (tag 18 or untagged, optionally
  /// inside the CWT tag 61) whose protected header has `typ` (16) `application/statuslist+cwt`,
  /// and whose payload is a claims map with 2 `sub`, 6 `iat`, optional 4 `exp`, 65534 `ttl`,
  /// 1 `iss`, and 65533 `status_list {bits, lst (bstr), aggregation_uri?}`.
  public init(cwt: [UInt8], maximumDecompressedSize: Int = StatusListLimits.maximumDecompressedSize)
    throws(StatusListError)
  {
    guard cwt.count <= StatusListLimits.maximumTokenSize else {
      throw StatusListError(
        .tooLarge,
        "the token is \(cwt.count) bytes, more than \(StatusListLimits.maximumTokenSize)")
    }
    let sign1 = try Self.cwtSign1(cwt)
    let claims = try Self.cwtClaims(sign1)
    guard let subject = claims[CWTKey.sub]?.text else {
      throw StatusListError(.malformed, "the CWT has no text sub (2)")
    }
    guard let list = claims[CWTKey.statusList]?.map else {
      throw StatusListError(.malformed, "the CWT has no status_list (65533) map")
    }
    let (bits, compressed, aggregation) = try Self.cwtStatusList(list)
    let chain: [[UInt8]]
    do {
      chain = try sign1.headers.x5chain
    } catch {
      throw StatusListError(.malformed, "x5chain: \(error.reason)", underlying: error)
    }
    format = .cwt
    self.subject = subject
    if let iss = claims[CWTKey.iss] {
      guard let text = iss.text else { throw StatusListError(.malformed, "iss (1) is not text") }
      issuer = text
    } else {
      issuer = nil
    }
    guard let iat = try Self.cborDate(claims, CWTKey.iat, "iat (6)") else {
      throw StatusListError(.malformed, "the CWT has no iat (6)")
    }
    issuedAt = iat
    expiresAt = try Self.cborDate(claims, CWTKey.exp, "exp (4)")
    timeToLive = try Self.positive(claims[CWTKey.ttl].map { $0.int ?? -1 }, "ttl (65534)")
    aggregationURI = aggregation
    certificateChain = chain
    encoded = cwt
    signed = .cwt(sign1)
    statusList = try StatusList(
      bits: bits, compressed: compressed, maximumSize: maximumDecompressedSize)
  }

  /// The JWT's claims: a JSON object, bounded in depth and size.
  private static func jwtClaims(_ jws: CompactJWS) throws(StatusListError) -> JSONValue {
    let claims: JSONValue
    do {
      claims = try JSONValue(
        parsing: jws.payload,
        limits: JSONLimits(maxDepth: 16, maxLength: StatusListLimits.maximumTokenSize))
    } catch {
      throw StatusListError(.malformed, "the JWT payload: \(error.reason)", underlying: error)
    }
    guard case .object = claims else {
      throw StatusListError(.malformed, "the JWT payload is not a JSON object")
    }
    return claims
  }

  /// The JWT's `status_list`: `bits`, `lst` (base64url) decoded, `aggregation_uri` when present.
  private static func jwtStatusList(_ list: JSONValue) throws(StatusListError) -> (
    StatusList.Bits, [UInt8], String?
  ) {
    guard let bitsValue = list["bits"]?.int else {
      throw StatusListError(.malformed, "status_list.bits is not an integer")
    }
    let bits = try StatusList.bits(bitsValue)
    guard let lst = list["lst"]?.string else {
      throw StatusListError(.malformed, "status_list.lst is not a string")
    }
    let compressed: [UInt8]
    do {
      compressed = try Base64URL.decode(lst)
    } catch {
      throw StatusListError(.malformed, "status_list.lst: \(error.reason)", underlying: error)
    }
    let aggregation = try optionalJSONString(list, "aggregation_uri", "status_list.")
    return (bits, compressed, aggregation)
  }

  /// The CWT's COSE_Sign1, with or without the CWT tag, whose protected `typ` is ``cwtType``.
  private static func cwtSign1(_ cwt: [UInt8]) throws(StatusListError) -> COSESign1 {
    var item: CBOR
    do {
      item = try CBORDecoder(limits: cborLimits).decode(cwt)
    } catch {
      throw StatusListError(.malformed, "not CBOR: \(error.reason)", underlying: error)
    }
    // RFC 8392 §6: a CWT may carry the CWT tag (61) around the COSE message.
    if case .tagged(61, let inner) = item { item = inner }
    let sign1: COSESign1
    do {
      sign1 = try COSESign1(cbor: item)
    } catch {
      throw StatusListError(.malformed, "not a COSE_Sign1: \(error.reason)", underlying: error)
    }
    guard sign1.headers.protected[key: CBOR(CWTKey.typ)]?.text == cwtType else {
      throw StatusListError(
        .malformed, "the protected header typ (16) is not \(cwtType)")
    }
    return sign1
  }

  /// The CWT's claims: the attached payload, a CBOR map.
  private static func cwtClaims(_ sign1: COSESign1) throws(StatusListError) -> CBORMap {
    guard let payload = sign1.payload else {
      throw StatusListError(.malformed, "the COSE_Sign1 has a detached payload")
    }
    do {
      guard let map = try CBORDecoder(limits: cborLimits).decode(payload).map else {
        throw StatusListError(.malformed, "the CWT claims are not a map")
      }
      return map
    } catch let error as StatusListError {
      throw error
    } catch {
      throw StatusListError(.malformed, "the CWT claims: \(error)", underlying: error)
    }
  }

  /// The CWT's `status_list` (65533): `bits`, `lst` (a byte string), `aggregation_uri` when
  /// present.
  private static func cwtStatusList(_ list: CBORMap) throws(StatusListError) -> (
    StatusList.Bits, [UInt8], String?
  ) {
    guard let bitsValue = list["bits"]?.int else {
      throw StatusListError(.malformed, "status_list.bits is not an integer")
    }
    let bits = try StatusList.bits(bitsValue)
    guard let compressed = list["lst"]?.bytes else {
      throw StatusListError(.malformed, "status_list.lst is not a byte string")
    }
    guard let value = list["aggregation_uri"] else { return (bits, compressed, nil) }
    guard let text = value.text else {
      throw StatusListError(.malformed, "status_list.aggregation_uri is not text")
    }
    return (bits, compressed, text)
  }

  // MARK: Verifying

  /// Verifies the signature with the key of the token's `x5c` / `x5chain` leaf after the chain
  /// validates against `trustAnchors` at `time` (draft §8.3 step 3; HAIP: the same anchors as the
  /// credential's issuer, so a token signed by the credential's document signer or another
  /// certificate under the same anchor is accepted and another issuer's is refused).
  ///
  /// - Parameters:
  ///   - trustAnchors: the roots the token's chain must validate to: those that anchor the
  ///     credential's issuer.
  ///   - time: the instant at which every certificate of the chain must be valid.
  ///   - fallbackChain: the chain to use when the token carries none (the mdoc `status` claim's
  ///     `certificate`).
  /// - Returns: the validated chain.
  /// - Throws: ``StatusListErrorCode/untrusted`` when there is no chain or it does not validate;
  ///   ``StatusListErrorCode/invalidSignature`` when the signature does not verify.
  @discardableResult
  public func verifySignature(
    trustAnchors: [Certificate], at time: Date, fallbackChain: [[UInt8]] = []
  ) throws(StatusListError) -> TrustedChain {
    let chain = certificateChain.isEmpty ? fallbackChain : certificateChain
    guard !chain.isEmpty else {
      throw StatusListError(
        .untrusted, "the token has no \(format == .jwt ? "x5c" : "x5chain") certificate chain")
    }
    let trusted: TrustedChain
    switch CertificateValidator(trustAnchors: trustAnchors, revocation: .current).validate(
      chainDER: chain, at: time)
    {
    case .trusted(let path): trusted = path
    case .untrusted(let reason), .malformed(let reason):
      throw StatusListError(.untrusted, "the token's certificate chain: \(reason)")
    }
    guard let key = trusted.leaf.publicKey.ecPublicKey else {
      throw StatusListError(.untrusted, "the token's signing certificate has no EC key")
    }
    try verifySignature(publicKey: key)
    return trusted
  }

  /// Verifies the signature with a known public key (draft §8.3 step 3).
  ///
  /// - Throws: ``StatusListErrorCode/invalidSignature``.
  public func verifySignature(publicKey: ECPublicKey) throws(StatusListError) {
    switch signed {
    case .jwt(let jws):
      do {
        try jws.verifySignature(with: publicKey)
      } catch {
        throw StatusListError(
          .invalidSignature, "the JWT signature: \(error.reason)", underlying: error)
      }
    case .cwt(let sign1):
      do {
        try sign1.verify(publicKey: publicKey)
      } catch {
        throw StatusListError(
          .invalidSignature, "the COSE_Sign1 signature: \(error.reason)", underlying: error)
      }
    }
  }

  // MARK: Building

  /// Builds and signs a token (draft §5.1 / §5.2) over `statusList`, compressed with zlib.
  ///
  /// The JWT has header `{alg, typ: statuslist+jwt, x5c}` and claims `sub`, `iat`, `exp`, `ttl`,
  /// `iss` (when given) and `status_list {bits, lst}`; the CWT is a tagged COSE_Sign1 with
  /// protected `{1: alg, 16: application/statuslist+cwt, 33: x5chain}` and claims 1, 2, 6, 4,
  /// 65534 and 65533 `{bits, lst}`. `certificateChain` (DER, leaf first) may be empty.
  public init(
    format: Format, subject: String, issuer: String? = nil, issuedAt: Date, expiresAt: Date?,
    timeToLive: Int?, statusList: StatusList, aggregationURI: String? = nil,
    certificateChain: [[UInt8]], signer: any Signer
  ) throws(StatusListError) {
    let compressed = try statusList.compressed()
    // The built token is read back as a reader would see it, except for the list's size: a
    // list larger than the cap can be built (readers will refuse it; tests make such bombs).
    let readBack = max(StatusListLimits.maximumDecompressedSize, statusList.bytes.count)
    let iat = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
    let exp = expiresAt.map { Int64($0.timeIntervalSince1970.rounded(.down)) }
    let claims = TokenClaims(
      subject: subject, issuer: issuer, issuedAt: iat, expiresAt: exp, timeToLive: timeToLive,
      bits: statusList.bits, compressed: compressed, aggregationURI: aggregationURI)
    switch format {
    case .jwt:
      let text = try Self.signJWT(claims, certificateChain: certificateChain, signer: signer)
      try self.init(jwt: text, maximumDecompressedSize: readBack)
    case .cwt:
      let sign1 = try Self.signCWT(claims, certificateChain: certificateChain, signer: signer)
      try self.init(cwt: sign1.cbor(tagged: true).encoded(), maximumDecompressedSize: readBack)
    }
  }

  /// The claims of a token being built, with `iat` and `exp` as whole seconds.
  private struct TokenClaims {
    /// `sub`.
    var subject: String
    /// `iss`, when given.
    var issuer: String?
    /// `iat`.
    var issuedAt: Int64
    /// `exp`, when given.
    var expiresAt: Int64?
    /// `ttl`, when given.
    var timeToLive: Int?
    /// `status_list.bits`.
    var bits: StatusList.Bits
    /// `status_list.lst`, before any base64url.
    var compressed: [UInt8]
    /// `status_list.aggregation_uri`, when given.
    var aggregationURI: String?
  }

  /// Signs the JWT form (draft §5.1): header `{alg, typ, x5c}`, claims in the order `sub`,
  /// `iss`, `iat`, `exp`, `ttl`, `status_list`.
  private static func signJWT(
    _ token: TokenClaims, certificateChain: [[UInt8]], signer: any Signer
  ) throws(StatusListError) -> String {
    var list: [(key: String, value: JSONValue)] = [
      ("bits", .integer(Int64(token.bits.rawValue))),
      ("lst", .string(Base64URL.encode(token.compressed))),
    ]
    if let aggregationURI = token.aggregationURI {
      list.append(("aggregation_uri", .string(aggregationURI)))
    }
    var claims: [(key: String, value: JSONValue)] = [("sub", .string(token.subject))]
    if let issuer = token.issuer { claims.append(("iss", .string(issuer))) }
    claims.append(("iat", .integer(token.issuedAt)))
    if let exp = token.expiresAt { claims.append(("exp", .integer(exp))) }
    if let timeToLive = token.timeToLive { claims.append(("ttl", .integer(Int64(timeToLive)))) }
    claims.append(("status_list", .object(list)))
    var header: [(key: String, value: JSONValue)] = [("typ", .string(Self.jwtType))]
    if !certificateChain.isEmpty { header.append(("x5c", JWS.x5c(certificateChain))) }
    do {
      return try JWS.sign(
        payload: JSONValue.object(claims).serializedBytes(), protectedHeader: .object(header),
        signer: signer)
    } catch {
      throw StatusListError(.signingFailed, "JWS: \(error.reason)", underlying: error)
    }
  }

  /// Signs the CWT form (draft §5.2): protected `{1: alg, 16: typ, 33: x5chain}`, claims 1, 2,
  /// 6, 4, 65534, 65533.
  private static func signCWT(
    _ token: TokenClaims, certificateChain: [[UInt8]], signer: any Signer
  ) throws(StatusListError) -> COSESign1 {
    var list: CBORMap = ["bits": CBOR(token.bits.rawValue), "lst": .byteString(token.compressed)]
    if let aggregationURI = token.aggregationURI {
      list["aggregation_uri"] = .textString(aggregationURI)
    }
    var claims = CBORMap()
    if let issuer = token.issuer { claims[key: CBOR(CWTKey.iss)] = .textString(issuer) }
    claims[key: CBOR(CWTKey.sub)] = .textString(token.subject)
    claims[key: CBOR(CWTKey.iat)] = CBOR(Int(token.issuedAt))
    if let exp = token.expiresAt { claims[key: CBOR(CWTKey.exp)] = CBOR(Int(exp)) }
    if let timeToLive = token.timeToLive { claims[key: CBOR(CWTKey.ttl)] = CBOR(timeToLive) }
    claims[key: CBOR(CWTKey.statusList)] = .map(list)
    var protected: CBORMap = [CBOR(CWTKey.typ): .textString(Self.cwtType)]
    if !certificateChain.isEmpty {
      protected[key: COSEHeaderLabel.x5chain] = COSEHeaders.x5chainValue(certificateChain)
    }
    do {
      return try COSESign1.sign(
        payload: CBOR.map(claims).encoded(), protected: protected, signer: signer)
    } catch {
      throw StatusListError(.signingFailed, "COSE_Sign1: \(error.reason)", underlying: error)
    }
  }

  // MARK: Claim helpers

  static func optionalJSONString(_ object: JSONValue, _ key: String, _ prefix: String)
    throws(StatusListError) -> String?
  {
    guard let value = object[key] else { return nil }
    guard let text = value.string else {
      throw StatusListError(.malformed, "\(prefix)\(key) is not a string")
    }
    return text
  }

  /// A NumericDate (RFC 7519 §2): seconds since the epoch, integer or not.
  static func jsonDate(_ object: JSONValue, _ key: String, required: Bool) throws(StatusListError)
    -> Date?
  {
    guard let value = object[key] else {
      if required { throw StatusListError(.malformed, "the JWT has no \(key)") }
      return nil
    }
    guard let seconds = value.double, seconds.isFinite else {
      throw StatusListError(.malformed, "\(key) is not a NumericDate")
    }
    return Date(timeIntervalSince1970: seconds)
  }

  /// A CWT NumericDate (RFC 8392 §2): an integer or a float.
  static func cborDate(_ claims: CBORMap, _ key: Int, _ name: String) throws(StatusListError)
    -> Date?
  {
    guard let value = claims[key] else { return nil }
    if let seconds = value.int { return Date(timeIntervalSince1970: Double(seconds)) }
    if let seconds = value.double, seconds.isFinite { return Date(timeIntervalSince1970: seconds) }
    throw StatusListError(.malformed, "\(name) is not a NumericDate")
  }

  /// `ttl` (draft §5.1): a positive number of seconds.
  static func positive(_ value: Int?, _ name: String) throws(StatusListError) -> Int? {
    guard let value else { return nil }
    guard value > 0 else {
      throw StatusListError(.malformed, "\(name) is not a positive integer")
    }
    return value
  }
}
