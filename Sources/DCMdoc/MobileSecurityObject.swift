public import DCCBOR
public import DCCOSE
package import DCCrypto
public import Foundation

/// `ValidityInfo` (ISO 18013-5 §9.1.2.4): when the MSO was signed and when it may be used.
public struct ValidityInfo: Sendable, Hashable {

  /// The CBOR map keys of this structure, named once (ISO 18013-5 §9.1.2.4).
  enum Keys {
    static let signed = "signed"
    static let validFrom = "validFrom"
    static let validUntil = "validUntil"
    static let expectedUpdate = "expectedUpdate"
    static let all = [signed, validFrom, validUntil, expectedUpdate]
  }

  /// `signed`: when the MSO was signed.
  public let signed: Date
  /// `validFrom`: the MSO is not valid before this time.
  public let validFrom: Date
  /// `validUntil`: the MSO is not valid after this time.
  public let validUntil: Date
  package let expectedUpdate: Date?

  /// Creates validity information, each instant truncated to whole seconds: ISO 18013-5
  /// §9.1.2.4 forbids fractions of seconds in these `tdate`s (and Longfellow's mdoc circuit reads
  /// them as exactly 20 characters, `YYYY-MM-DDTHH:MM:SSZ`).
  public init(signed: Date, validFrom: Date, validUntil: Date, expectedUpdate: Date? = nil) {
    func whole(_ date: Date) -> Date {
      Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
    self.init(
      exactly: whole(signed), validFrom: whole(validFrom), validUntil: whole(validUntil),
      expectedUpdate: expectedUpdate.map(whole))
  }

  /// The instants as given: what a received MSO says, fractions and all.
  private init(exactly signed: Date, validFrom: Date, validUntil: Date, expectedUpdate: Date?) {
    self.signed = signed
    self.validFrom = validFrom
    self.validUntil = validUntil
    self.expectedUpdate = expectedUpdate
  }

  /// Reads `ValidityInfo`: each member a `tdate` (tag 0, RFC 3339), `expectedUpdate` optional.
  init(_ map: CBORMapReader) throws(CBORError) {
    func date(_ key: String) throws(CBORError) -> Date? {
      guard let item = try map.optional(key, as: CBOR.self) else { return nil }
      guard item.tag == 0, let date = item.dateTime else {
        throw map.error(.typeMismatch, key, "expected tdate (tag 0)")
      }
      return date
    }
    func required(_ key: String) throws(CBORError) -> Date {
      guard let value = try date(key) else {
        throw map.error(.missingField, key, "missing required field")
      }
      return value
    }
    self.init(
      exactly: try required(Keys.signed), validFrom: try required(Keys.validFrom),
      validUntil: try required(Keys.validUntil), expectedUpdate: try date(Keys.expectedUpdate))
  }
}

/// `KeyAuthorizations` (§9.1.2.4): what the device key may sign in `DeviceSigned`.
public struct KeyAuthorizations: Sendable, Hashable {

  /// The CBOR map keys of this structure, named once (ISO 18013-5 §9.1.2.4).
  enum Keys {
    static let nameSpaces = "nameSpaces"
    static let dataElements = "dataElements"
    static let all = [nameSpaces, dataElements]
  }

  /// Namespaces whose every element the device may sign.
  public let nameSpaces: [String]
  /// Individual elements the device may sign, by namespace.
  public let dataElements: [String: [String]]

  /// Creates authorizations.
  public init(nameSpaces: [String] = [], dataElements: [String: [String]] = [:]) {
    self.nameSpaces = nameSpaces
    self.dataElements = dataElements
  }

  /// Reads `KeyAuthorizations`. ISO 18013-5 §9.1.2.4: a namespace in `nameSpaces` shall not
  /// also appear in `dataElements`; both are sets.
  init(_ map: CBORMapReader) throws(CBORError) {
    let spaces = try map.uniqueTexts(Keys.nameSpaces) ?? []
    let elements = try map.optional(Keys.dataElements, as: [String: [String]].self) ?? [:]
    for nameSpace in spaces where elements[nameSpace] != nil {
      throw map.error(
        .duplicateMapKey, Keys.dataElements, "\(nameSpace) is also in \(Keys.nameSpaces)")
    }
    self.init(nameSpaces: spaces, dataElements: elements)
  }

  /// Whether the device may sign an element.
  public func authorizes(nameSpace: String, element: String) -> Bool {
    nameSpaces.contains(nameSpace) || (dataElements[nameSpace]?.contains(element) ?? false)
  }
}

/// `MobileSecurityObject` (ISO 18013-5 §9.1.2.4): the issuer-signed digests, device key, docType
/// and validity. Kept with its exact bytes, which issuerAuth signs.
public struct MobileSecurityObject: Sendable, Hashable {

  /// The CBOR map keys of this structure, named once (ISO 18013-5 §9.1.2.4).
  enum Keys {
    static let version = "version"
    static let digestAlgorithm = "digestAlgorithm"
    static let valueDigests = "valueDigests"
    static let deviceKeyInfo = "deviceKeyInfo"
    static let docType = "docType"
    static let validityInfo = "validityInfo"
    static let status = "status"
    static let all = [
      version, digestAlgorithm, valueDigests, deviceKeyInfo, docType, validityInfo, status,
    ]
    static let clause = "ISO 18013-5 §9.1.2.4"

    /// `DeviceKeyInfo = {"deviceKey": DeviceKey, ? "keyAuthorizations": KeyAuthorizations,
    /// ? "keyInfo": KeyInfo}`.
    enum DeviceKeyInfo {
      static let deviceKey = "deviceKey"
      static let keyAuthorizations = "keyAuthorizations"
      static let keyInfo = "keyInfo"
      static let all = [deviceKey, keyAuthorizations, keyInfo]
    }
  }

  /// The MSO's exact encoding (the content of `MobileSecurityObjectBytes`).
  package let encoded: EncodedCBOR
  /// `version`: "1.0".
  package let version: String
  /// "SHA-256", "SHA-384" or "SHA-512".
  package let digestAlgorithm: String
  /// Digests by namespace and digest ID.
  package let valueDigests: [String: [UInt64: [UInt8]]]
  /// The device key as a COSE_Key (`deviceKeyInfo.deviceKey`).
  public let deviceKey: COSEKey
  /// `deviceKeyInfo.keyAuthorizations`: the namespaces and elements the device key may sign in
  /// DeviceSigned (§9.1.2.4); nil when absent.
  public let keyAuthorizations: KeyAuthorizations?
  /// `docType`: the document type the MSO is for.
  public let docType: String
  /// `validityInfo`: when the MSO was signed and the window in which it is valid.
  public let validityInfo: ValidityInfo
  /// The `status` member (token status list or identifier list), kept as given.
  public let status: CBOR?

  /// The digest algorithm as a value.
  package var digest: DigestAlgorithm {
    get throws(MdocError) {
      switch digestAlgorithm {
      case "SHA-256": return .sha256
      case "SHA-384": return .sha384
      case "SHA-512": return .sha512
      default:
        throw MdocError(
          .unsupportedDigestAlgorithm, "MSO digestAlgorithm \(digestAlgorithm) is not supported")
      }
    }
  }

  /// Reads an MSO from `MobileSecurityObjectBytes` (the tag 24 item).
  package init(taggedBytes item: CBOR) throws(MdocError) {
    let encoded = try reading("MobileSecurityObjectBytes") { () throws(CBORError) in
      try item.requireTag24("MobileSecurityObjectBytes")
    }
    try self.init(encoded: encoded)
  }

  /// Reads an MSO from its encoding.
  package init(encoded: EncodedCBOR) throws(MdocError) {
    self.encoded = encoded
    let parsed = try reading("MobileSecurityObject") {
      () throws(CBORError) -> (
        String, String, [String: [UInt64: [UInt8]]], CBOR, KeyAuthorizations?, String, ValidityInfo,
        CBOR?
      ) in
      let map = try CBORMapReader(
        encoded.value, structure: "MobileSecurityObject", clause: Keys.clause,
        knownKeys: Keys.all)
      let digests = try Self.valueDigests(map)
      let keyInfo = try map.requiredMap(Keys.deviceKeyInfo, knownKeys: Keys.DeviceKeyInfo.all)
      return (
        try map.required(Keys.version, as: String.self),
        try map.required(Keys.digestAlgorithm, as: String.self),
        digests,
        try keyInfo.required(Keys.DeviceKeyInfo.deviceKey, as: CBOR.self),
        try keyInfo.optionalMap(
          Keys.DeviceKeyInfo.keyAuthorizations, knownKeys: KeyAuthorizations.Keys.all
        ).map { (reader) throws(CBORError) in try KeyAuthorizations(reader) },
        try map.required(Keys.docType, as: String.self),
        try ValidityInfo(map.requiredMap(Keys.validityInfo, knownKeys: ValidityInfo.Keys.all)),
        try map.optional(Keys.status, as: CBOR.self)
      )
    }
    version = parsed.0
    digestAlgorithm = parsed.1
    valueDigests = parsed.2
    do {
      deviceKey = try COSEKey(cbor: parsed.3)
    } catch {
      throw MdocError(.malformed, "MSO deviceKey: \(error.reason)", underlying: error)
    }
    keyAuthorizations = parsed.4
    docType = parsed.5
    validityInfo = parsed.6
    status = parsed.7
  }

  /// `ValueDigests = {+ NameSpace => DigestIDs}`, `DigestIDs = {+ DigestID => Digest}`
  /// (§9.1.2.4), read in one pass over the decoded maps into the dictionaries kept; keys that
  /// one Swift dictionary would merge are refused (RFC 8949 §5.6).
  static func valueDigests(_ map: CBORMapReader) throws(CBORError) -> [String: [UInt64: [UInt8]]] {
    let key = Keys.valueDigests
    let item = try map.item(key)
    guard let spaces = item.map else {
      throw map.error(.typeMismatch, key, "expected a map, got \(item.kindName)")
    }
    var result: [String: [UInt64: [UInt8]]] = [:]
    result.reserveCapacity(spaces.count)
    let names = spaces.keys
    let tables = spaces.values
    for index in names.indices {
      let name = names[index]
      guard let nameSpace = name.text else {
        throw map.error(
          .typeMismatch, key,
          "map key \(name.diagnosticNotation): expected a text string, got \(name.kindName)")
      }
      guard let table = tables[index].map else {
        throw map.error(
          .typeMismatch, key,
          "[\(name.diagnosticNotation)]: expected a map, got \(tables[index].kindName)")
      }
      var digests: [UInt64: [UInt8]] = [:]
      digests.reserveCapacity(table.count)
      let ids = table.keys
      let values = table.values
      for position in ids.indices {
        let id = ids[position]
        guard let digestID = id.uint64 else {
          throw map.error(
            .typeMismatch, key,
            "[\(name.diagnosticNotation)]: map key \(id.diagnosticNotation): expected an unsigned integer, got \(id.kindName)"
          )
        }
        guard let digest = values[position].bytes else {
          throw map.error(
            .typeMismatch, key,
            "[\(name.diagnosticNotation)][\(id.diagnosticNotation)]: expected a byte string, got \(values[position].kindName)"
          )
        }
        guard digests.updateValue(digest, forKey: digestID) == nil else {
          throw map.error(
            .duplicateMapKey, key, "[\(name.diagnosticNotation)]: map keys collide after conversion"
          )
        }
      }
      guard result.updateValue(digests, forKey: nameSpace) == nil else {
        throw map.error(.duplicateMapKey, key, "map keys collide after conversion")
      }
    }
    return result
  }

  /// Builds and encodes an MSO (issuer side), maps in CDDL order.
  package init(
    digestAlgorithm: DigestAlgorithm,
    valueDigests: [(nameSpace: String, digests: [(UInt64, [UInt8])])],
    deviceKey: COSEKey, keyAuthorizations: KeyAuthorizations? = nil, docType: String,
    validityInfo: ValidityInfo,
    status: CBOR? = nil
  ) {
    var digestsMap = CBORMap()
    var digestsDict: [String: [UInt64: [UInt8]]] = [:]
    for (ns, digests) in valueDigests {
      var inner = CBORMap()
      for (id, digest) in digests {
        inner[key: .unsigned(id)] = .byteString(digest)
        digestsDict[ns, default: [:]][id] = digest
      }
      digestsMap[key: .textString(ns)] = .map(inner)
    }
    var keyInfo: CBORMap = ["deviceKey": deviceKey.cbor]
    if let keyAuthorizations {
      keyInfo["keyAuthorizations"] = .map(Self.keyAuthorizationsMap(keyAuthorizations))
    }
    var map: CBORMap = [
      "version": "1.0", "digestAlgorithm": .textString(digestAlgorithm.rawValue),
      "valueDigests": .map(digestsMap),
      "deviceKeyInfo": .map(keyInfo), "docType": .textString(docType),
      "validityInfo": .map(Self.validityInfoMap(validityInfo)),
    ]
    if let status { map[Keys.status] = status }
    encoded = EncodedCBOR(mdoc: .map(map))
    version = "1.0"
    self.digestAlgorithm = digestAlgorithm.rawValue
    self.valueDigests = digestsDict
    self.deviceKey = deviceKey
    self.keyAuthorizations = keyAuthorizations
    self.docType = docType
    self.validityInfo = validityInfo
    self.status = status
  }

  /// `KeyAuthorizations`: `nameSpaces` and `dataElements`, each only when not empty, data
  /// elements by name space in sorted order.
  private static func keyAuthorizationsMap(_ authorizations: KeyAuthorizations) -> CBORMap {
    var auth = CBORMap()
    if !authorizations.nameSpaces.isEmpty {
      auth["nameSpaces"] = .array(authorizations.nameSpaces.map { .textString($0) })
    }
    if !authorizations.dataElements.isEmpty {
      auth["dataElements"] = .map(
        CBORMap(
          authorizations.dataElements.sorted { $0.key < $1.key }.map {
            (.textString($0.key), .array($0.value.map { .textString($0) }))
          }))
    }
    return auth
  }

  /// `ValidityInfo`, `expectedUpdate` only when set.
  private static func validityInfoMap(_ validityInfo: ValidityInfo) -> CBORMap {
    var validity: CBORMap = [
      "signed": .dateTime(validityInfo.signed), "validFrom": .dateTime(validityInfo.validFrom),
      "validUntil": .dateTime(validityInfo.validUntil),
    ]
    if let update = validityInfo.expectedUpdate { validity["expectedUpdate"] = .dateTime(update) }
    return validity
  }

  /// Whether `now` lies in [validFrom, validUntil]; the error says which side failed.
  package func checkValidity(at now: Date) throws(MdocError) {
    if now < validityInfo.validFrom {
      throw MdocError(
        .notYetValid, "the mdoc is valid from \(validityInfo.validFrom), it is \(now)")
    }
    if now > validityInfo.validUntil {
      throw MdocError(.expired, "the mdoc expired at \(validityInfo.validUntil), it is \(now)")
    }
  }
}
