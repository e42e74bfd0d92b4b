public import DCCrypto
import DCEncoding
public import DCJSON

/// An elliptic-curve JSON Web Key, public or private (RFC 7517 §4, RFC 7518 §6.2).
///
/// Coordinates and the private scalar are kept as bytes of exactly the curve's field size
/// (RFC 7518 §6.2.1.2, §6.2.2.1); members this type does not model are kept, in order.
public struct JWK: Sendable, Hashable, CustomStringConvertible {
  /// The curve (`crv`, RFC 7518 §6.2.1.1).
  public var crv: EllipticCurve
  /// The x coordinate, field-size bytes (`x`, RFC 7518 §6.2.1.2).
  package var x: [UInt8]
  /// The y coordinate, field-size bytes (`y`, RFC 7518 §6.2.1.3).
  package var y: [UInt8]
  /// The private scalar, field-size bytes, for private keys (`d`, RFC 7518 §6.2.2.1).
  package var d: [UInt8]?
  /// The key ID (`kid`, RFC 7517 §4.5).
  public var kid: String?
  /// The intended use, `sig` or `enc` (`use`, RFC 7517 §4.2).
  public var use: String?
  /// The algorithm the key is meant for (`alg`, RFC 7517 §4.4).
  public var alg: String?
  /// Every other member, in the order read (RFC 7517 §4: unknown members are kept, not dropped).
  package var additionalMembers: [(key: String, value: JSONValue)]

  /// The point checked when the JWK was read, so that ``publicKey()`` does not import it a
  /// second time; used only while `crv`, `x` and `y` still hold what was checked.
  private var checkedKey: ECPublicKey?

  /// The key type, always `EC` here (`kty`, RFC 7517 §4.1, RFC 7518 §6.1).
  package var kty: String { "EC" }

  /// A public JWK for a key (RFC 7518 §6.2.1).
  public init(publicKey: ECPublicKey, kid: String? = nil, use: String? = nil, alg: String? = nil) {
    crv = publicKey.curve
    x = publicKey.x
    y = publicKey.y
    d = nil
    self.kid = kid
    self.use = use
    self.alg = alg
    additionalMembers = []
    checkedKey = publicKey
  }

  /// A private JWK for a key, with its public coordinates (RFC 7518 §6.2.2).
  public init(
    privateKey: ECPrivateKey, kid: String? = nil, use: String? = nil, alg: String? = nil
  ) {
    self.init(publicKey: privateKey.publicKey, kid: kid, use: use, alg: alg)
    d = privateKey.rawRepresentation
  }

  /// Reads a JWK object, checking that it is an EC key on a supported curve, that every
  /// coordinate has exactly the field size, and that the point is on the curve (RFC 7518 §6.2.1).
  public init(json: JSONValue) throws(JOSEError) {
    guard case .object(let members) = json else {
      throw JOSEError(.invalidKey, "a JWK must be a JSON object")
    }
    func string(_ name: String) throws(JOSEError) -> String? { try Self.member(name, in: json) }
    guard let kty = try string("kty") else { throw JOSEError(.invalidKey, "JWK has no kty") }
    guard kty == "EC" else {
      throw JOSEError(.unsupportedAlgorithm, "JWK kty \(kty) is not supported (only EC)")
    }
    guard let crvName = try string("crv") else { throw JOSEError(.invalidKey, "EC JWK has no crv") }
    guard let curve = EllipticCurve(jwkName: crvName) else {
      throw JOSEError(.unsupportedAlgorithm, "JWK crv \(crvName) is not supported")
    }
    func coordinate(_ name: String) throws(JOSEError) -> [UInt8]? {
      guard let text = try string(name) else { return nil }
      return try Self.coordinate(text, name: name, curve: curve)
    }
    guard let x = try coordinate("x"), let y = try coordinate("y") else {
      throw JOSEError(.invalidKey, "EC JWK needs x and y")
    }
    crv = curve
    self.x = x
    self.y = y
    d = try coordinate("d")
    kid = try string("kid")
    use = try string("use")
    alg = try string("alg")
    additionalMembers = members.filter {
      switch $0.key {
      case "kty", "crv", "x", "y", "d", "kid", "use", "alg": false
      default: true
      }
    }
    checkedKey = try publicKey()
  }

  /// A string member of a JWK, nil when absent.
  private static func member(_ name: String, in json: JSONValue) throws(JOSEError) -> String? {
    guard let value = json[name] else { return nil }
    guard let s = value.string else {
      throw JOSEError(.invalidKey, "JWK member \(name) must be a string")
    }
    return s
  }

  /// A coordinate or private scalar: base64url of exactly the curve's field size.
  private static func coordinate(_ text: String, name: String, curve: EllipticCurve)
    throws(JOSEError) -> [UInt8]
  {
    let bytes: [UInt8]
    do {
      bytes = try Base64URL.decode(text)
    } catch {
      throw JOSEError(.invalidBase64URL, "JWK \(name): \(error.reason)", underlying: error)
    }
    // RFC 7518 §6.2.1.2: the full field size, even when leading bytes are zero.
    guard bytes.count == curve.coordinateByteCount else {
      throw JOSEError(
        .invalidKey,
        "JWK \(name) must be \(curve.coordinateByteCount) bytes for \(curve.jwkName), got \(bytes.count)"
      )
    }
    return bytes
  }

  /// The JWK as a JSON object: `kty`, `crv`, `x`, `y`, `d`, `kid`, `use`, `alg`, then the rest
  /// (RFC 7517 §4).
  public var json: JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("kty", "EC"), ("crv", .string(crv.jwkName)),
      ("x", .string(Base64URL.encode(x))), ("y", .string(Base64URL.encode(y))),
    ]
    if let d { members.append(("d", .string(Base64URL.encode(d)))) }
    if let kid { members.append(("kid", .string(kid))) }
    if let use { members.append(("use", .string(use))) }
    if let alg { members.append(("alg", .string(alg))) }
    members.append(contentsOf: additionalMembers)
    return .object(members)
  }

  /// This key without its private scalar (RFC 7517 §4: public keys carry no `d`).
  public var publicJWK: JWK {
    var copy = self
    copy.d = nil
    return copy
  }

  /// True when the key carries a private scalar (RFC 7518 §6.2.2).
  package var isPrivate: Bool { d != nil }

  /// The public key; the point must be on `crv` (RFC 7518 §6.2.1, SEC 1 §3.2.2.1).
  public func publicKey() throws(JOSEError) -> ECPublicKey {
    if let checkedKey, checkedKey.curve == crv {
      // SEC 1 §2.3.3: the uncompressed point is 04 || X || Y.
      let point = checkedKey.x963Representation
      let n = crv.coordinateByteCount
      if point[1...n].elementsEqual(x), point[(n + 1)...].elementsEqual(y) { return checkedKey }
    }
    do {
      return try ECPublicKey(x: x, y: y, curve: crv)
    } catch {
      throw JOSEError(
        .invalidKey, "JWK is not a valid \(crv.jwkName) point: \(error.reason)", underlying: error)
    }
  }

  /// The private key; `d` must be present and must match `x` and `y` (RFC 7518 §6.2.2.1).
  public func privateKey() throws(JOSEError) -> ECPrivateKey {
    guard let d else { throw JOSEError(.invalidKey, "JWK has no private scalar d") }
    let key: ECPrivateKey
    do {
      key = try ECPrivateKey(rawRepresentation: d, curve: crv)
    } catch {
      throw JOSEError(
        .invalidKey, "JWK d is not a valid \(crv.jwkName) scalar: \(error.reason)",
        underlying: error)
    }
    guard key.publicKey.x == x, key.publicKey.y == y else {
      throw JOSEError(.invalidKey, "JWK d does not match its x and y")
    }
    return key
  }

  /// The RFC 7638 §3 thumbprint: SHA-256 over `{"crv":…,"kty":"EC","x":…,"y":…}` with the required
  /// members in lexicographic order and no whitespace (RFC 7638 §3.2).
  public func thumbprint() -> [UInt8] {
    let canonical: JSONValue = .object([
      ("crv", .string(crv.jwkName)), ("kty", "EC"),
      ("x", .string(Base64URL.encode(x))), ("y", .string(Base64URL.encode(y))),
    ])
    return SHA256.hash(data: canonical.serializedBytes())
  }

  /// The RFC 7638 thumbprint, base64url-encoded (RFC 7638 §3.1).
  public var thumbprintBase64URL: String { Base64URL.encode(thumbprint()) }

  /// Describes the key without its private scalar.
  public var description: String {
    "JWK(\(crv.jwkName), kid: \(kid ?? "-"), \(isPrivate ? "private" : "public"))"
  }

  /// Keys are equal when every member is equal, members in order.
  public static func == (lhs: JWK, rhs: JWK) -> Bool { lhs.json == rhs.json }

  /// Hashes consistently with `==`.
  public func hash(into hasher: inout Hasher) { hasher.combine(json) }
}

/// A JWK Set (RFC 7517 §5): the EC keys of a `{"keys": [...]}` document.
public struct JWKSet: Sendable, Hashable {
  /// The keys this module understands, in document order.
  public var keys: [JWK]

  /// Creates a set from keys.
  public init(keys: [JWK]) { self.keys = keys }

  /// Reads `{"keys": [...]}`; keys of a type or curve this module does not support are skipped,
  /// as RFC 7517 §5 asks, but a malformed EC key is an error.
  public init(json: JSONValue) throws(JOSEError) {
    guard let array = json["keys"]?.array else {
      throw JOSEError(.invalidKey, "a JWK Set needs a keys array")
    }
    var keys: [JWK] = []
    for element in array {
      do {
        keys.append(try JWK(json: element))
      } catch  where error.code == .unsupportedAlgorithm {
        continue
      }
    }
    self.keys = keys
  }

  /// `{"keys": [...]}` (RFC 7517 §5).
  public var json: JSONValue { .object([("keys", .array(keys.map(\.json)))]) }

  /// The single key whose `kid` equals `kid` (RFC 7517 §4.5).
  ///
  /// - Throws: `keyNotFound` when none matches, `invalidKey` when several do.
  public func key(withID kid: String) throws(JOSEError) -> JWK {
    let matches = keys.filter { $0.kid == kid }
    guard let first = matches.first else {
      throw JOSEError(.keyNotFound, "no key with kid \(kid)")
    }
    guard matches.count == 1 else {
      throw JOSEError(.invalidKey, "\(matches.count) keys share kid \(kid)")
    }
    return first
  }
}
