public import DCCBOR
public import DCCrypto

/// A COSE_Key of key type EC2 (RFC 9052 §7, RFC 9053 §7.1.1).
///
/// The structure is kept as given; `publicKey()` and `privateKey()` validate it into a usable key.
public struct COSEKey: Sendable, Hashable {
  /// Key type EC2 (RFC 9053 §7.1).
  package static let ec2: Int = 2

  /// The curve identifier (`crv`, label -1): 1 = P-256, 2 = P-384, 3 = P-521 (RFC 9053 Table 18).
  package let curveIdentifier: Int
  /// The x coordinate (label -2).
  package let x: [UInt8]
  /// The y coordinate (label -3); compressed points (a bool) are not supported.
  package let y: [UInt8]
  /// The private scalar (label -4), if present.
  package let d: [UInt8]?
  /// The key identifier (label 2).
  public let keyID: [UInt8]?
  /// The algorithm the key is restricted to (label 3).
  public let algorithm: Int?

  /// A public COSE_Key for a key.
  public init(publicKey: ECPublicKey, keyID: [UInt8]? = nil, algorithm: Int? = nil) {
    curveIdentifier = Self.identifier(for: publicKey.curve)
    x = publicKey.x
    y = publicKey.y
    d = nil
    self.keyID = keyID
    self.algorithm = algorithm
  }

  /// A private COSE_Key (with `d`) for a key.
  public init(privateKey: ECPrivateKey, keyID: [UInt8]? = nil) {
    let pub = privateKey.publicKey
    curveIdentifier = Self.identifier(for: pub.curve)
    x = pub.x
    y = pub.y
    d = privateKey.rawRepresentation
    self.keyID = keyID
    algorithm = nil
  }

  /// A structural COSE_Key from raw parts; nothing is validated until a key is extracted.
  package init(curveIdentifier: Int, x: [UInt8], y: [UInt8], d: [UInt8]? = nil) {
    self.curveIdentifier = curveIdentifier
    self.x = x
    self.y = y
    self.d = d
    keyID = nil
    algorithm = nil
  }

  /// Reads a COSE_Key map; only EC2 keys with bstr coordinates are accepted.
  public init(cbor: CBOR) throws(COSEError) {
    guard let map = cbor.map else { throw COSEError(.malformed, "COSE_Key must be a map") }
    guard map[1]?.int == Self.ec2 else {
      throw COSEError(
        .invalidKey, "COSE_Key kty must be EC2 (2), got \(map[1].map { "\($0)" } ?? "none")")
    }
    guard let crv = map[-1]?.int else {
      throw COSEError(.invalidKey, "COSE_Key has no integer crv (-1)")
    }
    guard let x = map[-2]?.bytes else {
      throw COSEError(.invalidKey, "COSE_Key has no bstr x (-2)")
    }
    guard let y = map[-3]?.bytes else {
      throw COSEError(
        .invalidKey, "COSE_Key y (-3) must be a bstr: compressed points are not supported")
    }
    if let dItem = map[-4], dItem.bytes == nil {
      throw COSEError(.invalidKey, "COSE_Key d (-4) must be a bstr")
    }
    curveIdentifier = crv
    self.x = x
    self.y = y
    d = map[-4]?.bytes
    keyID = map[2]?.bytes
    algorithm = map[3]?.int
  }

  /// The COSE_Key map with integer labels, deterministically ordered on encoding.
  public var cbor: CBOR {
    var map: CBORMap = [
      1: CBOR(Self.ec2), -1: CBOR(curveIdentifier), -2: .byteString(x), -3: .byteString(y),
    ]
    if let d { map[key: -4] = .byteString(d) }
    if let keyID { map[key: 2] = .byteString(keyID) }
    if let algorithm { map[key: 3] = CBOR(algorithm) }
    return .map(map)
  }

  /// The curve, when the identifier is one this library supports.
  public var curve: EllipticCurve? {
    switch curveIdentifier {
    case 1: .p256
    case 2: .p384
    case 3: .p521
    default: nil
    }
  }

  /// Whether this COSE_Key holds exactly `key`: the same curve and coordinates of the curve's
  /// size equal to `key`'s (RFC 9053 §7.1.1 keeps leading zeros). Then ``publicKey()`` would
  /// give `key`; comparing the bytes spares importing and checking the point again. Private
  /// parts and other members are not looked at.
  package func isEncoding(of key: ECPublicKey) -> Bool {
    guard curve == key.curve else { return false }
    let point = key.x963Representation
    let size = key.curve.coordinateByteCount
    return x.count == size && y.count == size && point.count == 1 + 2 * size
      && point[1...size].elementsEqual(x) && point[(1 + size)...].elementsEqual(y)
  }

  /// The validated public key: coordinates of the curve's size, a point on the curve.
  public func publicKey() throws(COSEError) -> ECPublicKey {
    guard let curve else {
      throw COSEError(.invalidKey, "COSE_Key crv \(curveIdentifier) is not supported")
    }
    do {
      return try ECPublicKey(x: x, y: y, curve: curve)
    } catch {
      throw COSEError(error, "COSE_Key")
    }
  }

  /// The validated private key; `d` must match `x` and `y`.
  public func privateKey() throws(COSEError) -> ECPrivateKey {
    guard let curve else {
      throw COSEError(.invalidKey, "COSE_Key crv \(curveIdentifier) is not supported")
    }
    guard let d else { throw COSEError(.invalidKey, "COSE_Key has no private scalar (-4)") }
    let key: ECPrivateKey
    do {
      key = try ECPrivateKey(rawRepresentation: d, curve: curve)
    } catch {
      throw COSEError(error, "COSE_Key")
    }
    guard key.publicKey.x == x, key.publicKey.y == y else {
      throw COSEError(.invalidKey, "COSE_Key d does not match its x and y")
    }
    return key
  }

  static func identifier(for curve: EllipticCurve) -> Int {
    switch curve {
    case .p256: 1
    case .p384: 2
    case .p521: 3
    }
  }
}
