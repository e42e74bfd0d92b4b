import DCCBOR
import DCCOSE

extension IssuerSigned {
  /// Reads an IssuerSigned (ISO 18013-5 §8.3.2.1.2.2) and its MSO (§9.1.2.4) straight from the
  /// bytes, without building the generic CBOR tree of the whole structure, or returns nil.
  ///
  /// Only the plain shape is read here: definite lengths, text keys that are all known (each
  /// once), the values of the types the CDDL gives. For anything else (an unknown key, an
  /// indefinite length, a wrong type, a repeated key, a semantic refusal, trailing bytes) it
  /// returns nil, and the caller decodes the generic way, which gives the value or the error it
  /// always gave. Whenever it returns a value, that value equals what
  /// `init(cbor: CBOR.decode(bytes))` gives, field by field: every `IssuerSignedItemBytes` keeps
  /// the exact bytes received (the MSO's digests cover them, §9.1.2.5) and the MSO its exact
  /// bytes (issuerAuth signs them, §9.1.2.4), each with the decoded value the generic decoder
  /// makes; issuerAuth, the element values, `deviceKeyInfo`, `validityInfo` and `status` are
  /// handed to the generic decoder at the depth they have, so its limits apply as they would.
  package static func readDirectly(_ bytes: [UInt8]) -> IssuerSigned? {
    guard bytes.count <= DirectReader.maxInput else { return nil }
    var reader = DirectReader(bytes: bytes)
    return reader.issuerSigned()
  }
}

/// The IssuerSigned parts of the direct reader; see `IssuerSigned.readDirectly(_:)`.
extension DirectReader {
  /// The map keys, as UTF-8 (ISO 18013-5 §8.3.2.1.2.2, §9.1.2.4).
  enum IssuerKey {
    static let nameSpaces = Array(IssuerSigned.Keys.nameSpaces.utf8)
    static let issuerAuth = Array(IssuerSigned.Keys.issuerAuth.utf8)
    static let digestID = Array(IssuerSignedItem.Keys.digestID.utf8)
    static let random = Array(IssuerSignedItem.Keys.random.utf8)
    static let elementIdentifier = Array(IssuerSignedItem.Keys.elementIdentifier.utf8)
    static let elementValue = Array(IssuerSignedItem.Keys.elementValue.utf8)
    static let version = Array(MobileSecurityObject.Keys.version.utf8)
    static let digestAlgorithm = Array(MobileSecurityObject.Keys.digestAlgorithm.utf8)
    static let valueDigests = Array(MobileSecurityObject.Keys.valueDigests.utf8)
    static let deviceKeyInfo = Array(MobileSecurityObject.Keys.deviceKeyInfo.utf8)
    static let docType = Array(MobileSecurityObject.Keys.docType.utf8)
    static let validityInfo = Array(MobileSecurityObject.Keys.validityInfo.utf8)
    static let status = Array(MobileSecurityObject.Keys.status.utf8)
  }

  /// `IssuerSigned` (depth 0).
  mutating func issuerSigned() -> IssuerSigned? {
    guard let count = mapCount() else { return nil }
    var nameSpaces: [(nameSpace: String, items: [IssuerSignedItem])]? = nil
    var issuerAuth: COSESign1? = nil
    var issuerAuthFirst = false
    for index in 0..<count {
      guard let key = textRange() else { return nil }
      if matches(key, IssuerKey.nameSpaces) {
        guard nameSpaces == nil, let value = issuerNameSpaces() else { return nil }
        nameSpaces = value
      } else if matches(key, IssuerKey.issuerAuth) {
        // A value of the top map sits at depth 1.
        guard issuerAuth == nil, let item = genericItem(depth: 1),
          let signature = try? COSESign1(cbor: item)
        else { return nil }
        issuerAuth = signature
        issuerAuthFirst = index == 0
      } else {
        return nil
      }
    }
    // The payload is `MobileSecurityObjectBytes = #6.24(bstr .cbor MobileSecurityObject)`
    // (§9.1.2.4), one item spanning it, the MSO decoded on its own as the generic path does.
    guard offset == bytes.count, let issuerAuth, let payload = issuerAuth.payload else {
      return nil
    }
    var wrapper = DirectReader(bytes: payload)
    guard let content = wrapper.tag24Content(), wrapper.offset == payload.count else { return nil }
    var inner = DirectReader(bytes: content)
    guard let mso = inner.mobileSecurityObject() else { return nil }
    let spaces = nameSpaces ?? []
    return IssuerSigned(
      unchecked: spaces, issuerAuth: issuerAuth, mso: mso,
      issuerAuthFirst: issuerAuthFirst && !spaces.isEmpty)
  }

  /// `IssuerNameSpaces` (depth 1): namespace → non-empty array of `IssuerSignedItemBytes`, no
  /// namespace twice (RFC 8949 §5.6: text keys are equal when their UTF-8 bytes are).
  mutating func issuerNameSpaces() -> [(nameSpace: String, items: [IssuerSignedItem])]? {
    guard let count = mapCount() else { return nil }
    var spaces: [(nameSpace: String, items: [IssuerSignedItem])] = []
    spaces.reserveCapacity(count)
    var ranges: [Range<Int>] = []
    ranges.reserveCapacity(count)
    for _ in 0..<count {
      guard let range = textRange(), !ranges.contains(where: { sameBytes($0, range) }),
        let nameSpace = text(range), let array = head(), array.major == 4, array.argument > 0,
        array.argument <= remaining
      else { return nil }
      ranges.append(range)
      var items: [IssuerSignedItem] = []
      items.reserveCapacity(array.argument)
      for _ in 0..<array.argument {
        // Each item is decoded on its own from its tag 24 bytes, kept exactly (§8.3.2.1.2.2).
        guard let content = tag24Content() else { return nil }
        var itemReader = DirectReader(bytes: content)
        guard let item = itemReader.issuerSignedItem() else { return nil }
        items.append(item)
      }
      spaces.append((nameSpace, items))
    }
    return spaces
  }

  /// `IssuerSignedItem` (its own encoding, depth 0): the four members, each once (a repeated
  /// or unknown key goes the generic way).
  mutating func issuerSignedItem() -> IssuerSignedItem? {
    guard let count = mapCount() else { return nil }
    var keys: [CBOR] = []
    var values: [CBOR] = []
    keys.reserveCapacity(count)
    values.reserveCapacity(count)
    var digestID: UInt64? = nil
    var random: [UInt8]? = nil
    var identifier: String? = nil
    var value: CBOR? = nil
    for _ in 0..<count {
      guard let key = textRange() else { return nil }
      if matches(key, IssuerKey.digestID) {
        guard digestID == nil, let head = fullHead(), head.major == 0 else { return nil }
        digestID = head.argument
        keys.append(.textString(IssuerSignedItem.Keys.digestID))
        values.append(.unsigned(head.argument))
      } else if matches(key, IssuerKey.random) {
        guard random == nil, let bytes = readByteString() else { return nil }
        random = bytes
        keys.append(.textString(IssuerSignedItem.Keys.random))
        values.append(.byteString(bytes))
      } else if matches(key, IssuerKey.elementIdentifier) {
        guard identifier == nil, let text = readText() else { return nil }
        identifier = text
        keys.append(.textString(IssuerSignedItem.Keys.elementIdentifier))
        values.append(.textString(text))
      } else if matches(key, IssuerKey.elementValue) {
        // A value of the item map sits at depth 1.
        guard value == nil, let item = genericItem(depth: 1) else { return nil }
        value = item
        keys.append(.textString(IssuerSignedItem.Keys.elementValue))
        values.append(item)
      } else {
        return nil
      }
    }
    guard offset == bytes.count, let digestID, let random, let identifier, let value else {
      return nil
    }
    return IssuerSignedItem(
      read: EncodedCBOR(
        uncheckedBytes: bytes, value: .map(CBORMap(uncheckedKeys: keys, values: values))),
      digestID: digestID, random: random, elementIdentifier: identifier, elementValue: value)
  }

  /// A definite-length byte string's bytes (major type 2).
  mutating func readByteString() -> [UInt8]? {
    guard let head = head(), head.major == 2, head.argument <= remaining else { return nil }
    defer { offset += head.argument }
    return Array(bytes[offset..<(offset + head.argument)])
  }

  /// `MobileSecurityObject` (its own encoding, depth 0), §9.1.2.4.
  mutating func mobileSecurityObject() -> MobileSecurityObject? {
    guard let count = mapCount() else { return nil }
    var keys: [CBOR] = []
    var values: [CBOR] = []
    keys.reserveCapacity(count)
    values.reserveCapacity(count)
    var version: String? = nil
    var digestAlgorithm: String? = nil
    var valueDigests: [String: [UInt64: [UInt8]]]? = nil
    var deviceKeyInfo: CBOR? = nil
    var docType: String? = nil
    var validityInfo: CBOR? = nil
    var status: CBOR? = nil
    typealias Names = MobileSecurityObject.Keys
    for _ in 0..<count {
      guard let key = textRange() else { return nil }
      let name: String
      let value: CBOR
      if matches(key, IssuerKey.version) {
        guard version == nil, let text = readText() else { return nil }
        version = text
        (name, value) = (Names.version, .textString(text))
      } else if matches(key, IssuerKey.digestAlgorithm) {
        guard digestAlgorithm == nil, let text = readText() else { return nil }
        digestAlgorithm = text
        (name, value) = (Names.digestAlgorithm, .textString(text))
      } else if matches(key, IssuerKey.docType) {
        guard docType == nil, let text = readText() else { return nil }
        docType = text
        (name, value) = (Names.docType, .textString(text))
      } else if matches(key, IssuerKey.valueDigests) {
        guard valueDigests == nil, let read = readValueDigests() else { return nil }
        valueDigests = read.digests
        (name, value) = (Names.valueDigests, .map(read.map))
      } else if matches(key, IssuerKey.deviceKeyInfo) {
        // Values of the MSO map sit at depth 1.
        guard deviceKeyInfo == nil, let item = genericItem(depth: 1) else { return nil }
        deviceKeyInfo = item
        (name, value) = (Names.deviceKeyInfo, item)
      } else if matches(key, IssuerKey.validityInfo) {
        guard validityInfo == nil, let item = genericItem(depth: 1) else { return nil }
        validityInfo = item
        (name, value) = (Names.validityInfo, item)
      } else if matches(key, IssuerKey.status) {
        guard status == nil, let item = genericItem(depth: 1) else { return nil }
        status = item
        (name, value) = (Names.status, item)
      } else {
        return nil
      }
      keys.append(.textString(name))
      values.append(value)
    }
    guard offset == bytes.count, let version, let digestAlgorithm, let valueDigests,
      let deviceKeyInfo, let docType, let validityInfo
    else { return nil }
    // The open members are read by the same readers as on the generic path.
    let deviceKey: COSEKey
    let keyAuthorizations: KeyAuthorizations?
    let validity: ValidityInfo
    do {
      let keyInfo = try CBORMapReader(
        deviceKeyInfo, structure: "MobileSecurityObject.deviceKeyInfo", clause: Names.clause,
        knownKeys: Names.DeviceKeyInfo.all)
      deviceKey = try COSEKey(cbor: keyInfo.item(Names.DeviceKeyInfo.deviceKey))
      keyAuthorizations = try keyInfo.optionalMap(
        Names.DeviceKeyInfo.keyAuthorizations, knownKeys: KeyAuthorizations.Keys.all
      ).map { (reader) throws(CBORError) in try KeyAuthorizations(reader) }
      validity = try ValidityInfo(
        CBORMapReader(
          validityInfo, structure: "MobileSecurityObject.validityInfo", clause: Names.clause,
          knownKeys: ValidityInfo.Keys.all))
    } catch {
      return nil
    }
    return MobileSecurityObject(
      read: EncodedCBOR(
        uncheckedBytes: bytes, value: .map(CBORMap(uncheckedKeys: keys, values: values))),
      version: version, digestAlgorithm: digestAlgorithm, valueDigests: valueDigests,
      deviceKey: deviceKey, keyAuthorizations: keyAuthorizations, docType: docType,
      validityInfo: validity, status: status)
  }

  /// `ValueDigests` (depth 1): namespace → (digest ID → digest), neither map empty, no key
  /// twice (a repeated key, or two keys one Swift `Dictionary` would merge, go the generic way).
  mutating func readValueDigests()
    -> (digests: [String: [UInt64: [UInt8]]], map: CBORMap)?
  {
    guard let count = mapCount() else { return nil }
    var digests: [String: [UInt64: [UInt8]]] = [:]
    digests.reserveCapacity(count)
    var keys: [CBOR] = []
    var values: [CBOR] = []
    keys.reserveCapacity(count)
    values.reserveCapacity(count)
    for _ in 0..<count {
      guard let nameSpace = readText(), digests[nameSpace] == nil, let idCount = mapCount() else {
        return nil
      }
      var byID: [UInt64: [UInt8]] = [:]
      byID.reserveCapacity(idCount)
      var ids: [CBOR] = []
      var hashes: [CBOR] = []
      ids.reserveCapacity(idCount)
      hashes.reserveCapacity(idCount)
      for _ in 0..<idCount {
        guard let id = fullHead(), id.major == 0, byID[id.argument] == nil,
          let digest = readByteString()
        else { return nil }
        byID[id.argument] = digest
        ids.append(.unsigned(id.argument))
        hashes.append(.byteString(digest))
      }
      digests[nameSpace] = byID
      keys.append(.textString(nameSpace))
      values.append(.map(CBORMap(uncheckedKeys: ids, values: hashes)))
    }
    return (digests, CBORMap(uncheckedKeys: keys, values: values))
  }
}

extension IssuerSignedItem {
  /// An item as read directly, its encoding kept exactly with the value decoded from it.
  init(
    read encoded: EncodedCBOR, digestID: UInt64, random: [UInt8], elementIdentifier: String,
    elementValue: CBOR
  ) {
    self.encoded = encoded
    self.digestID = digestID
    self.random = random
    self.elementIdentifier = elementIdentifier
    self.elementValue = elementValue
  }
}

extension MobileSecurityObject {
  /// An MSO as read directly, its encoding kept exactly with the value decoded from it.
  init(
    read encoded: EncodedCBOR, version: String, digestAlgorithm: String,
    valueDigests: [String: [UInt64: [UInt8]]], deviceKey: COSEKey,
    keyAuthorizations: KeyAuthorizations?, docType: String, validityInfo: ValidityInfo,
    status: CBOR?
  ) {
    self.encoded = encoded
    self.version = version
    self.digestAlgorithm = digestAlgorithm
    self.valueDigests = valueDigests
    self.deviceKey = deviceKey
    self.keyAuthorizations = keyAuthorizations
    self.docType = docType
    self.validityInfo = validityInfo
    self.status = status
  }
}
