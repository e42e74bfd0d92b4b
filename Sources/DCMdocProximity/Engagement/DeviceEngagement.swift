public import DCCBOR
import DCCOSE
public import DCCrypto

/// `DeviceEngagement` (ISO 18013-5:2021 §8.2.1.1): what the mdoc shows in a QR code or hands over
/// by NFC, its ephemeral key (`EDeviceKey`) and how a reader reaches it.
///
/// ```
/// DeviceEngagement = {
///   0: tstr,                      ; Version
///   1: Security,                  ; [1, EDeviceKeyBytes]
///   ? 2: DeviceRetrievalMethods,  ; present for QR engagement
///   ? 5: OriginInfos,             ; version 1.1 (ISO/IEC TS 18013-7)
///   * int => any
/// }
/// ```
///
/// The value keeps its exact bytes: `DeviceEngagementBytes = #6.24(bstr .cbor DeviceEngagement)`
/// enters the SessionTranscript as they arrived (§9.1.5.1).
public struct DeviceEngagement: Sendable, Hashable {
  enum Keys {
    static let version = 0
    static let security = 1
    static let deviceRetrievalMethods = 2
    static let originInfos = 5
    static let clause = "ISO 18013-5 §8.2.1.1"
  }

  /// The cipher suite of `Security` (ISO 18013-5 §9.1.5.2: 1 is the only one defined).
  package static let cipherSuite: UInt64 = 1

  /// The most bytes a DeviceEngagement may have (docs/LIMITS.md, "Proximity session"): one is a
  /// few hundred bytes, and a QR code holds under 3 KB of binary data.
  package static let maxByteCount = 4096

  /// The version text, `"1.0"`, or `"1.1"` when OriginInfos are present.
  public let version: String
  /// The mdoc's ephemeral public key.
  public let eDeviceKey: ECPublicKey
  /// The COSE_Key of `eDeviceKey` exactly as encoded in the engagement (`EDeviceKeyBytes` wraps it).
  package let eDeviceKeyEncoded: EncodedCBOR
  /// The device retrieval methods, in order (empty for an NFC engagement, whose carriers are in
  /// the Handover Select message).
  public let retrievalMethods: [DeviceRetrievalMethod]
  /// The OriginInfos (version 1.1 and later; ISO/IEC TS 18013-7).
  package let originInfos: [OriginInfo]
  /// Every other entry (`* int => any`, keys 3 and 4 of the 2021 CDDL included, and key 5 in a
  /// version 1.0 engagement): kept, not interpreted.
  public let additionalEntries: CBORMap
  /// The engagement's exact encoding and value.
  public let encoded: EncodedCBOR

  /// Builds an engagement: version `"1.0"` (`"1.1"` with OriginInfos), cipher suite 1, preferred
  /// serialization with definite lengths, keys in ascending order.
  public init(
    eDeviceKey: ECPublicKey, retrievalMethods: [DeviceRetrievalMethod] = [],
    originInfos: [OriginInfo] = []
  ) {
    let key = EncodedCBOR(encoding: COSEKey(publicKey: eDeviceKey).cbor)
    let version = originInfos.isEmpty ? "1.0" : "1.1"
    var map: CBORMap = [
      CBOR(Keys.version): .textString(version),
      CBOR(Keys.security): [.unsigned(Self.cipherSuite), key.tag24],
    ]
    if !retrievalMethods.isEmpty {
      map[key: CBOR(Keys.deviceRetrievalMethods)] = .array(retrievalMethods.map(\.cbor))
    }
    if !originInfos.isEmpty {
      map[key: CBOR(Keys.originInfos)] = .array(originInfos.map(\.cbor))
    }
    self.version = version
    self.eDeviceKey = eDeviceKey
    self.eDeviceKeyEncoded = key
    self.retrievalMethods = retrievalMethods
    self.originInfos = originInfos
    self.additionalEntries = CBORMap()
    self.encoded = EncodedCBOR(proximity: .map(map))
  }

  /// Reads an engagement, keeping its bytes.
  ///
  /// - Throws: `tooLarge` past 4096 bytes; `malformed` for anything not the CDDL (a key that
  ///   is not an integer included); `unsupportedVersion` unless the version is 1.x;
  ///   `unsupportedCipherSuite`; `invalidKey` for an EDeviceKey that is not a point of P-256,
  ///   P-384 or P-521.
  public init(bytes: [UInt8]) throws(MdocProximityError) {
    guard bytes.count <= Self.maxByteCount else {
      throw MdocProximityError(
        .tooLarge,
        "DeviceEngagement of \(bytes.count) bytes exceeds the limit of \(Self.maxByteCount)")
    }
    let encoded: EncodedCBOR
    do {
      encoded = try EncodedCBOR(
        bytes: bytes, limits: CBORDecoder.Limits(maxDepth: 16, maxTotalItems: 1024))
    } catch {
      throw MdocProximityError(
        .malformed, "DeviceEngagement is not well-formed CBOR: \(error.reason)",
        underlying: error)
    }
    try self.init(encoded: encoded)
  }

  private init(encoded: EncodedCBOR) throws(MdocProximityError) {
    guard let map = encoded.value.map else {
      throw malformed("expected a map, got \(encoded.value.kindName)")
    }
    for key in map.keys where key.int == nil {
      throw malformed("key \(key.diagnosticNotation) is not an integer (* int => any)")
    }
    let version = try Self.readVersion(map)
    let keyEncoded = try Self.readSecurity(map)
    self.eDeviceKey = try ephemeralKey(keyEncoded, "DeviceEngagement.EDeviceKey")
    var retrievalMethods: [DeviceRetrievalMethod] = []
    if let item = map[Keys.deviceRetrievalMethods] {
      guard let methods = item.array, !methods.isEmpty else {
        throw malformed("2 (DeviceRetrievalMethods) must be a non-empty array")
      }
      for (index, method) in methods.enumerated() {
        retrievalMethods.append(try DeviceRetrievalMethod(cbor: method, index: index))
      }
    }
    var originInfos: [OriginInfo] = []
    var additional = CBORMap()
    let readsOriginInfos = version != "1.0"
    if readsOriginInfos, let item = map[Keys.originInfos] {
      guard let infos = item.array else { throw malformed("5 (OriginInfos) must be an array") }
      for (index, info) in infos.enumerated() {
        originInfos.append(try OriginInfo(cbor: info, index: index))
      }
    }
    for (key, value) in map {
      let int = key.int ?? -1
      let known =
        int == Keys.version || int == Keys.security || int == Keys.deviceRetrievalMethods
        || (int == Keys.originInfos && readsOriginInfos)
      if !known { additional[key: key] = value }
    }
    self.version = version
    self.eDeviceKeyEncoded = keyEncoded
    self.retrievalMethods = retrievalMethods
    self.originInfos = originInfos
    self.additionalEntries = additional
    self.encoded = encoded
  }

  /// `0` (version): a text string naming a 1.x version.
  private static func readVersion(_ map: CBORMap) throws(MdocProximityError) -> String {
    guard let versionItem = map[Keys.version] else { throw malformed("0 (version) is missing") }
    guard let version = versionItem.text else {
      throw malformed("0 (version) must be a text string, got \(versionItem.kindName)")
    }
    guard isVersion1(version) else {
      throw MdocProximityError(
        .unsupportedVersion,
        "DeviceEngagement version \"\(version)\" is not a 1.x version (\(Keys.clause))")
    }
    return version
  }

  /// `1` (Security): cipher suite 1 and the tagged EDeviceKeyBytes, returned as encoded.
  private static func readSecurity(_ map: CBORMap) throws(MdocProximityError) -> EncodedCBOR {
    guard let security = map[Keys.security]?.array, security.count == 2 else {
      throw malformed("1 (Security) must be an array [cipher suite, EDeviceKeyBytes]")
    }
    guard let suite = security[0].uint64 else {
      throw malformed("Security[0] (cipher suite) must be an unsigned integer")
    }
    guard suite == cipherSuite else {
      throw MdocProximityError(
        .unsupportedCipherSuite,
        "DeviceEngagement cipher suite \(suite) is not 1 (ISO 18013-5 §9.1.5.2)")
    }
    do {
      return try security[1].requireTag24("DeviceEngagement.Security[1] (EDeviceKeyBytes)")
    } catch {
      throw MdocProximityError(.malformed, error.reason, underlying: error)
    }
  }

  /// The engagement's bytes.
  public var bytes: [UInt8] { encoded.bytes }

  /// `DeviceEngagementBytes = #6.24(bstr .cbor DeviceEngagement)`, the first member of the
  /// SessionTranscript (§9.1.5.1).
  package var deviceEngagementBytes: CBOR { encoded.tag24 }

  /// `EDeviceKeyBytes = #6.24(bstr .cbor EDeviceKey)` as encoded in the engagement.
  package var eDeviceKeyBytes: CBOR { eDeviceKeyEncoded.tag24 }

  /// The first BLE retrieval method's options, if any.
  public var bleOptions: BLEOptions? {
    for method in retrievalMethods { if case .ble(let options) = method { return options } }
    return nil
  }

  /// Compares the bytes.
  public static func == (lhs: DeviceEngagement, rhs: DeviceEngagement) -> Bool {
    lhs.encoded == rhs.encoded
  }

  /// Hashes the bytes.
  public func hash(into hasher: inout Hasher) { hasher.combine(encoded) }

  /// `1.` followed by one or more digits: the major version this library reads.
  static func isVersion1(_ version: String) -> Bool {
    let utf8 = Array(version.utf8)
    guard utf8.count >= 3, utf8.count <= 16, utf8[0] == UInt8(ascii: "1"),
      utf8[1] == UInt8(ascii: ".")
    else { return false }
    return utf8[2...].allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }
}

/// A `malformed` error naming DeviceEngagement and its clause.
func malformed(_ message: String, in structure: String = "DeviceEngagement")
  -> MdocProximityError
{
  MdocProximityError(.malformed, "\(structure): \(message) (\(DeviceEngagement.Keys.clause))")
}

/// An ephemeral key (EDeviceKey, EReaderKey) from its COSE_Key encoding: an EC2 key whose point is
/// on P-256, P-384 or P-521 (§9.1.5.2 allows those, brainpool and X25519/X448; the last ones are
/// not supported here).
func ephemeralKey(
  _ encoded: EncodedCBOR, _ name: String, status: SessionStatus? = nil
) throws(MdocProximityError) -> ECPublicKey {
  let key: COSEKey
  do {
    key = try COSEKey(cbor: encoded.value)
  } catch {
    throw MdocProximityError(
      error.code == .malformed ? .malformed : .invalidKey, "\(name): \(error.reason)",
      status: status, underlying: error)
  }
  do {
    return try key.publicKey()
  } catch {
    throw MdocProximityError(
      .invalidKey, "\(name): \(error.reason)", status: status, underlying: error)
  }
}
