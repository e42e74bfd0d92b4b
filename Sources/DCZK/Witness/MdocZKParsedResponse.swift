/// One IssuerSignedItem of the DeviceResponse with the positions the hash circuit's witness
/// needs (longfellow-zk `lib/circuits/mdoc/mdoc_witness.h`, FullAttribute and
/// ParsedMdoc::parse_device_response). Positions count from the DeviceResponse's first byte.
struct MdocZKItem {
  /// elementIdentifier's text content and length.
  let identifierStart: Int
  let identifierLength: Int
  /// The text content of the key "elementValue" (v7 records the key, so the order of the
  /// item's keys does not matter), and the value's length as CborDoc::length counts it.
  let valueKeyStart: Int
  let valueLength: Int
  /// The key "digestID" and its entry's length (key head + key + value).
  let digestKeyStart: Int
  let digestLength: Int
  /// The key "random" and its entry's length (key head + key + value head + value).
  let randomKeyStart: Int
  let randomLength: Int
  /// The namespace the item is in, and its digestID.
  let nameSpace: String
  let digestID: UInt64
  /// The tag-24 item's head (D8 18 58 LL) and its length with that head.
  let tagStart: Int
  let tagLength: Int
  /// The item's entry in the MSO's valueDigests: the value's head, relative to the MSO.
  var digestValueHead = 0
}

/// The parts of a DeviceResponse a Longfellow witness reads, located as upstream locates them.
struct MdocZKParsedResponse {
  let docType: [UInt8]
  /// issuerAuth[2]: the payload bstr (a tag-24 MSO) — content start and length.
  let msoPayloadStart: Int
  let msoPayloadLength: Int
  /// issuerAuth[3] and deviceSignature[3]: raw r‖s.
  let issuerSignature: [UInt8]
  let deviceSignature: [UInt8]
  /// Heads of the MSO's keys validFrom, validUntil, deviceKeyInfo, valueDigests, relative to the
  /// MSO (after the payload's D8 18 59 LL LL).
  let validFromKey: Int
  let validUntilKey: Int
  let deviceKeyInfoKey: Int
  let valueDigestsKey: Int
  /// The device key's coordinates, 32 bytes big-endian each.
  let deviceKeyX: [UInt8]
  let deviceKeyY: [UInt8]
  /// Items of the supported namespaces whose value is not an array or a map.
  let items: [MdocZKItem]

  /// Namespaces the circuits take, in upstream's search order (`mdoc_attribute_ids.h`,
  /// kSupportedNamespaces).
  static let supportedNameSpaces = [
    "org.iso.18013.5.1", "org.iso.18013.5.1.aamva", "eu.europa.ec.av.1", "eu.europa.ec.eudi.pid.1",
    "org.iso.23220.1", "org.iso.23220.photoID.1", "org.iso.23220.dtc.1", "in.gov.uidai.aadhaar.1",
  ]

  /// The signed Sig_structure of issuerAuth as the hash circuit hashes it: the COSE_Sign1
  /// prefix for protected header {1: -7} (`mdoc_constants.h`, kCose1Prefix, RFC 9052 §4.4)
  /// with a 2-byte bstr length, then the payload.
  func signedMSO(_ response: [UInt8]) -> [UInt8] {
    MdocZKWitnessLayout.cose1Prefix + [
      UInt8(msoPayloadLength >> 8), UInt8(msoPayloadLength & 0xFF),
    ]
      + response[msoPayloadStart..<msoPayloadStart + msoPayloadLength]
  }

  /// DeviceResponse → documents[0] → docType, issuerSigned{issuerAuth, nameSpaces},
  /// deviceSigned.deviceAuth.deviceSignature (ISO 18013-5 §8.3.2.1.2.2), as
  /// parse_device_response reads them.
  init(_ response: [UInt8]) throws(ZKError) {
    var position = 0
    let root = try LocatedCBOR.read(response, end: response.count, position: &position)
    func need<T>(_ value: T?, _ what: String) throws(ZKError) -> T {
      guard let value else { throw ZKError(.mdocMalformed, "the DeviceResponse has no \(what)") }
      return value
    }
    let document = try need(
      root.lookup("documents", in: response)?.value.element(0), "documents[0]")
    let docType = try need(document.lookup("docType", in: response)?.value, "docType")
    guard docType.kind == .text else { throw ZKError(.mdocMalformed, "docType is not text") }
    self.docType = Array(
      response[docType.contentStart..<docType.contentStart + docType.contentLength])
    let issuerSigned = try need(
      document.lookup("issuerSigned", in: response)?.value, "issuerSigned")
    let issuerAuth = try need(issuerSigned.lookup("issuerAuth", in: response)?.value, "issuerAuth")
    let payload = try need(issuerAuth.element(2), "issuerAuth payload")
    let signature = try need(issuerAuth.element(3), "issuerAuth signature")
    let nameSpaces = try need(issuerSigned.lookup("nameSpaces", in: response)?.value, "nameSpaces")
    var items: [MdocZKItem] = []
    for nameSpace in Self.supportedNameSpaces {
      guard let list = nameSpaces.lookup(nameSpace, in: response)?.value else { continue }
      guard list.kind == .array else {
        throw ZKError(.mdocMalformed, "\(nameSpace) is not an array")
      }
      for tagged in list.children {
        if let item = try Self.item(tagged, nameSpace: nameSpace, response: response) {
          items.append(item)
        }
      }
    }
    let deviceSigned = try need(
      document.lookup("deviceSigned", in: response)?.value, "deviceSigned")
    let deviceAuth = try need(deviceSigned.lookup("deviceAuth", in: response)?.value, "deviceAuth")
    let deviceSignature = try need(
      deviceAuth.lookup("deviceSignature", in: response)?.value.element(3), "deviceSignature")
    self.issuerSignature = try Self.rawSignature(signature, response, "issuerAuth")
    self.deviceSignature = try Self.rawSignature(deviceSignature, response, "deviceSignature")

    guard payload.kind == .bytes else {
      throw ZKError(.mdocMalformed, "the MSO payload is not a bstr")
    }
    // The circuit signs `59 LL LL` before the payload and skips `D8 18 59 LL LL` in it
    // (mdoc_witness.h: "Skip 5 bytes"): the tagged MSO must be 256 to 65,535 bytes and the MSO
    // inside it too; below the Sig_structure the issuer signed would not be the one hashed.
    let start = payload.contentStart
    let length = payload.contentLength
    guard length >= 256, length > 5, Array(response[start..<start + 3]) == [0xD8, 0x18, 0x59] else {
      throw ZKError(
        .mdocUnsupported,
        "the tagged MSO is \(length) bytes; the circuit takes 256 or more, as #6.24(bstr) of 256 or more"
      )
    }
    guard length < MdocZKWitnessLayout.maxTaggedMSOLength else {
      throw ZKError(
        .mdocUnsupported,
        "the tagged MSO is \(length) bytes; the circuit hashes at most \(MdocZKWitnessLayout.maxTaggedMSOLength - 1)"
      )
    }
    msoPayloadStart = start
    msoPayloadLength = length
    let mso = try MdocZKMSO(Array(response[start + 5..<start + length]), items: &items)
    validFromKey = mso.validFromKey
    validUntilKey = mso.validUntilKey
    deviceKeyInfoKey = mso.deviceKeyInfoKey
    valueDigestsKey = mso.valueDigestsKey
    deviceKeyX = mso.deviceKeyX
    deviceKeyY = mso.deviceKeyY
    self.items = items
  }

  /// r‖s of a COSE_Sign1's signature: 64 bytes (ES256), read as two 32-byte halves.
  private static func rawSignature(_ item: LocatedCBOR, _ response: [UInt8], _ what: String)
    throws(ZKError)
    -> [UInt8]
  {
    guard item.kind == .bytes, item.contentLength == 64 else {
      throw ZKError(.mdocUnsupported, "the \(what) signature is not 64 bytes r‖s (ES256)")
    }
    return Array(response[item.contentStart..<item.contentStart + 64])
  }

  /// One `#6.24(bstr .cbor IssuerSignedItem)`; nil for an array or map value, which the
  /// circuits do not match (upstream skips them).
  private static func item(_ tagged: LocatedCBOR, nameSpace: String, response: [UInt8])
    throws(ZKError)
    -> MdocZKItem?
  {
    guard case .tag = tagged.kind, let inner = tagged.children.first, inner.kind == .bytes else {
      throw ZKError(.mdocMalformed, "an IssuerSignedItem is not a tagged bstr")
    }
    var position = inner.contentStart
    let end = inner.contentStart + inner.contentLength
    let map = try LocatedCBOR.read(response, end: end, position: &position)
    func need(_ key: String) throws(ZKError) -> (key: LocatedCBOR, value: LocatedCBOR) {
      guard let entry = map.lookup(key, in: response) else {
        throw ZKError(.mdocMalformed, "an IssuerSignedItem has no \(key)")
      }
      return entry
    }
    let identifier = try need("elementIdentifier")
    let value = try need("elementValue")
    let digest = try need("digestID")
    let random = try need("random")
    guard case .unsigned(let digestID) = digest.value.kind else {
      throw ZKError(.mdocMalformed, "an IssuerSignedItem's digestID is not an unsigned integer")
    }
    if value.value.kind == .array || value.value.kind == .map { return nil }
    guard identifier.value.kind == .text, let identifierLength = identifier.value.length,
      let valueLength = value.value.length, let digestKeyLength = digest.key.length,
      let digestValueLength = digest.value.length, let randomKeyLength = random.key.length,
      let randomValueLength = random.value.length
    else {
      throw ZKError(.mdocUnsupported, "an IssuerSignedItem holds a value the circuit cannot locate")
    }
    return MdocZKItem(
      identifierStart: identifier.value.position, identifierLength: identifierLength,
      valueKeyStart: value.key.position, valueLength: valueLength,
      digestKeyStart: digest.key.position, digestLength: digestKeyLength + digestValueLength + 1,
      randomKeyStart: random.key.position,
      randomLength: randomKeyLength + randomValueLength + 1 + (randomValueLength < 24 ? 1 : 2),
      nameSpace: nameSpace, digestID: digestID, tagStart: tagged.head,
      tagLength: inner.contentLength + 4)
  }
}

/// The MSO's positions (mdoc_witness.h, parse_device_response after "parse tagged mso").
struct MdocZKMSO {
  let validFromKey: Int
  let validUntilKey: Int
  let deviceKeyInfoKey: Int
  let valueDigestsKey: Int
  let deviceKeyX: [UInt8]
  let deviceKeyY: [UInt8]

  init(_ mso: [UInt8], items: inout [MdocZKItem]) throws(ZKError) {
    var position = 0
    let root = try LocatedCBOR.read(mso, end: mso.count, position: &position)
    func need(_ entry: (key: LocatedCBOR, value: LocatedCBOR)?, _ what: String) throws(ZKError)
      -> (key: LocatedCBOR, value: LocatedCBOR)
    {
      guard let entry else { throw ZKError(.mdocMalformed, "the MSO has no \(what)") }
      return entry
    }
    let validity = try need(root.lookup("validityInfo", in: mso), "validityInfo")
    validFromKey = try need(validity.value.lookup("validFrom", in: mso), "validFrom").key.head
    validUntilKey = try need(validity.value.lookup("validUntil", in: mso), "validUntil").key.head
    let keyInfo = try need(root.lookup("deviceKeyInfo", in: mso), "deviceKeyInfo")
    deviceKeyInfoKey = keyInfo.key.head
    let deviceKey = try need(keyInfo.value.lookup("deviceKey", in: mso), "deviceKey").value
    // COSE_Key labels -2 (x) and -3 (y) are CBOR negative arguments 1 and 2 (RFC 9053 §7.1.1).
    let x = try need(deviceKey.lookup(.negative(1)), "device key x").value
    let y = try need(deviceKey.lookup(.negative(2)), "device key y").value
    guard x.kind == .bytes, x.contentLength == 32, y.kind == .bytes, y.contentLength == 32 else {
      throw ZKError(
        .mdocUnsupported, "the device key's coordinates are not 32-byte strings (P-256)")
    }
    deviceKeyX = Array(mso[x.contentStart..<x.contentStart + 32])
    deviceKeyY = Array(mso[y.contentStart..<y.contentStart + 32])
    let digests = try need(root.lookup("valueDigests", in: mso), "valueDigests")
    valueDigestsKey = digests.key.head
    for index in items.indices {
      let perNameSpace = try need(
        digests.value.lookup(items[index].nameSpace, in: mso), items[index].nameSpace)
      let entry = try need(
        perNameSpace.value.lookup(.unsigned(items[index].digestID)),
        "digest \(items[index].digestID)")
      items[index].digestValueHead = entry.value.head
    }
  }
}
