public import CBOR
public import COSE
public import CryptoPrimitives
public import Foundation

/// `ValidityInfo` (ISO 18013-5 §9.1.2.4): when the MSO was signed and when it may be used.
public struct ValidityInfo: Sendable, Hashable {
  public let signed: Date
  public let validFrom: Date
  public let validUntil: Date
  public let expectedUpdate: Date?

  /// Creates validity information.
  public init(signed: Date, validFrom: Date, validUntil: Date, expectedUpdate: Date? = nil) {
    self.signed = signed
    self.validFrom = validFrom
    self.validUntil = validUntil
    self.expectedUpdate = expectedUpdate
  }
}

/// `KeyAuthorizations` (§9.1.2.4): what the device key may sign in `DeviceSigned`.
public struct KeyAuthorizations: Sendable, Hashable {
  /// Namespaces whose every element the device may sign.
  public let nameSpaces: [String]
  /// Individual elements the device may sign, by namespace.
  public let dataElements: [String: [String]]

  /// Creates authorizations.
  public init(nameSpaces: [String] = [], dataElements: [String: [String]] = [:]) {
    self.nameSpaces = nameSpaces
    self.dataElements = dataElements
  }

  /// Whether the device may sign an element.
  public func authorizes(nameSpace: String, element: String) -> Bool {
    nameSpaces.contains(nameSpace) || (dataElements[nameSpace]?.contains(element) ?? false)
  }
}

/// `MobileSecurityObject` (ISO 18013-5 §9.1.2.4): the issuer-signed digests, device key, docType
/// and validity. Kept with its exact bytes, which issuerAuth signs.
public struct MobileSecurityObject: Sendable, Hashable {
  /// The MSO's exact encoding (the content of `MobileSecurityObjectBytes`).
  public let encoded: EncodedCBOR
  public let version: String
  /// "SHA-256", "SHA-384" or "SHA-512".
  public let digestAlgorithm: String
  /// Digests by namespace and digest ID.
  public let valueDigests: [String: [UInt64: [UInt8]]]
  /// The device key as a COSE_Key (`deviceKeyInfo.deviceKey`).
  public let deviceKey: COSEKey
  public let keyAuthorizations: KeyAuthorizations?
  public let docType: String
  public let validityInfo: ValidityInfo
  /// The `status` member (token status list or identifier list), kept as given.
  public let status: CBOR?

  /// The digest algorithm as a value.
  public var digest: DigestAlgorithm {
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
  public init(taggedBytes item: CBOR) throws(MdocError) {
    let encoded = try reading("MobileSecurityObjectBytes") { () throws(CBORError) in
      try item.requireTag24("MobileSecurityObjectBytes")
    }
    try self.init(encoded: encoded)
  }

  /// Reads an MSO from its encoding.
  public init(encoded: EncodedCBOR) throws(MdocError) {
    self.encoded = encoded
    let ctx = "MobileSecurityObject"
    let parsed = try reading(ctx) {
      () throws(CBORError) -> (
        String, String, [String: [UInt64: [UInt8]]], CBOR, KeyAuthorizations?, String, ValidityInfo,
        CBOR?
      ) in
      let map = try encoded.value.requireMap(ctx)
      let version = try map.required("version", as: String.self, in: ctx)
      let digestAlgorithm = try map.required("digestAlgorithm", as: String.self, in: ctx)
      var digests: [String: [UInt64: [UInt8]]] = [:]
      for (nsKey, ids) in try map.required("valueDigests", as: CBOR.self, in: ctx).requireMap(
        "\(ctx).valueDigests")
      {
        let ns = try nsKey.requireText("\(ctx).valueDigests key")
        var byID: [UInt64: [UInt8]] = [:]
        for (idKey, digest) in try ids.requireMap("\(ctx).valueDigests[\(ns)]") {
          byID[try idKey.requireUInt64("\(ctx).valueDigests[\(ns)] key")] = try digest.requireBytes(
            "\(ctx).valueDigests[\(ns)]")
        }
        digests[ns] = byID
      }
      let keyInfo = try map.required("deviceKeyInfo", as: CBOR.self, in: ctx).requireMap(
        "\(ctx).deviceKeyInfo")
      let deviceKey = try keyInfo.required("deviceKey", as: CBOR.self, in: "\(ctx).deviceKeyInfo")
      var authorizations: KeyAuthorizations?
      if let auth = try keyInfo.optional(
        "keyAuthorizations", as: CBOR.self, in: "\(ctx).deviceKeyInfo")
      {
        let authMap = try auth.requireMap("\(ctx).keyAuthorizations")
        let spaces =
          try authMap.optional("nameSpaces", as: [String].self, in: "\(ctx).keyAuthorizations")
          ?? []
        let elements =
          try authMap.optional(
            "dataElements", as: [String: [String]].self, in: "\(ctx).keyAuthorizations") ?? [:]
        authorizations = KeyAuthorizations(nameSpaces: spaces, dataElements: elements)
      }
      let docType = try map.required("docType", as: String.self, in: ctx)
      let validity = try map.required("validityInfo", as: CBOR.self, in: ctx).requireMap(
        "\(ctx).validityInfo")
      func date(_ key: String) throws(CBORError) -> Date? {
        guard let item = validity[key] else { return nil }
        guard item.tag == 0, let date = item.dateTime else {
          throw CBORError(
            .typeMismatch, reason: "\(ctx).validityInfo.\(key): expected tdate (tag 0)")
        }
        return date
      }
      guard let signed = try date("signed"), let from = try date("validFrom"),
        let until = try date("validUntil")
      else {
        throw CBORError(
          .missingField,
          reason: "\(ctx).validityInfo: signed, validFrom and validUntil are required")
      }
      let info = ValidityInfo(
        signed: signed, validFrom: from, validUntil: until,
        expectedUpdate: try date("expectedUpdate"))
      return (
        version, digestAlgorithm, digests, deviceKey, authorizations, docType, info, map["status"]
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

  /// Builds and encodes an MSO (issuer side), maps in CDDL order.
  public init(
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
      var auth = CBORMap()
      if !keyAuthorizations.nameSpaces.isEmpty {
        auth["nameSpaces"] = .array(keyAuthorizations.nameSpaces.map { .textString($0) })
      }
      if !keyAuthorizations.dataElements.isEmpty {
        auth["dataElements"] = .map(
          CBORMap(
            keyAuthorizations.dataElements.sorted { $0.key < $1.key }.map {
              (.textString($0.key), .array($0.value.map { .textString($0) }))
            }))
      }
      keyInfo["keyAuthorizations"] = .map(auth)
    }
    var validity: CBORMap = [
      "signed": .dateTime(validityInfo.signed), "validFrom": .dateTime(validityInfo.validFrom),
      "validUntil": .dateTime(validityInfo.validUntil),
    ]
    if let update = validityInfo.expectedUpdate { validity["expectedUpdate"] = .dateTime(update) }
    var map: CBORMap = [
      "version": "1.0", "digestAlgorithm": .textString(digestAlgorithm.rawValue),
      "valueDigests": .map(digestsMap),
      "deviceKeyInfo": .map(keyInfo), "docType": .textString(docType),
      "validityInfo": .map(validity),
    ]
    if let status { map["status"] = status }
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

  /// Whether `now` lies in [validFrom, validUntil]; the error says which side failed.
  public func checkValidity(at now: Date) throws(MdocError) {
    if now < validityInfo.validFrom {
      throw MdocError(
        .notYetValid, "the mdoc is valid from \(validityInfo.validFrom), it is \(now)")
    }
    if now > validityInfo.validUntil {
      throw MdocError(.expired, "the mdoc expired at \(validityInfo.validUntil), it is \(now)")
    }
  }
}
