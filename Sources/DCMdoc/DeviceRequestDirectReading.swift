import DCCBOR
import DCCOSE

extension DeviceRequest {
  /// Reads a DeviceRequest (ISO 18013-5 §8.3.2.1.2.1) straight from its bytes, without building
  /// the generic CBOR tree of the whole request, or returns nil.
  ///
  /// Only the plain shape is read here: definite lengths, text keys that are all known (each at
  /// most once), the values of the types the structure defines. For anything else (an unknown
  /// key, an indefinite length, a wrong type, a repeated key, a semantic refusal, trailing
  /// bytes) it returns nil, and the caller decodes the generic way, which gives the value or the
  /// error it always gave. Whenever it returns a request, that request equals what
  /// `init(cbor: CBOR.decode(bytes))` gives, field by field: `ItemsRequestBytes` and
  /// `DeviceRequestInfoBytes` keep the exact bytes received (readerAuth and readerAuthAll sign
  /// them, §9.1.4) with the same decoded value; readerAuth, readerAuthAll and requestInfo are
  /// handed to the generic decoder at the depth they have in the request, so its limits apply
  /// as they would there.
  package static func readDirectly(_ bytes: [UInt8]) -> DeviceRequest? {
    // Below this size no string, array or map can exceed `CBORDecoder.Limits.default`'s
    // item length or item count, so the generic limits need not be repeated here.
    guard bytes.count <= DirectReader.maxInput else { return nil }
    var reader = DirectReader(bytes: bytes)
    return reader.deviceRequest()
  }

  /// The request as read, keeping its version text as received.
  init(
    readVersion version: String, docRequests: [DocRequest], deviceRequestInfo: EncodedCBOR?,
    readerAuthAll: [COSESign1]
  ) {
    self.version = version
    self.docRequests = docRequests
    self.deviceRequestInfo = deviceRequestInfo
    self.readerAuthAll = readerAuthAll
  }
}

/// The DeviceRequest parts of the direct reader; see `DeviceRequest.readDirectly(_:)`.
extension DirectReader {
  /// The map keys, as UTF-8 (ISO 18013-5 §8.3.2.1.2.1).
  enum Key {
    static let version = Array(DeviceRequest.Keys.version.utf8)
    static let docRequests = Array(DeviceRequest.Keys.docRequests.utf8)
    static let deviceRequestInfo = Array(DeviceRequest.Keys.deviceRequestInfo.utf8)
    static let readerAuthAll = Array(DeviceRequest.Keys.readerAuthAll.utf8)
    static let itemsRequest = Array(DocRequest.Keys.itemsRequest.utf8)
    static let readerAuth = Array(DocRequest.Keys.readerAuth.utf8)
    static let docType = Array(ItemsRequest.Keys.docType.utf8)
    static let nameSpaces = Array(ItemsRequest.Keys.nameSpaces.utf8)
    static let requestInfo = Array(ItemsRequest.Keys.requestInfo.utf8)
  }

  /// The most elements of one namespace compared pairwise for repeats; more go the generic way.
  static let maxElementsPerNameSpace = 64

  /// `DeviceRequest` (depth 0).
  mutating func deviceRequest() -> DeviceRequest? {
    guard let count = mapCount() else { return nil }
    var version: String? = nil
    var docRequests: [DocRequest]? = nil
    var info: EncodedCBOR? = nil
    var readerAuthAll: [COSESign1]? = nil
    for _ in 0..<count {
      guard let key = textRange() else { return nil }
      if matches(key, Key.version) {
        guard version == nil, let value = readText() else { return nil }
        version = value
      } else if matches(key, Key.docRequests) {
        guard docRequests == nil, let value = docRequestArray() else { return nil }
        docRequests = value
      } else if matches(key, Key.deviceRequestInfo) {
        // DeviceRequestInfoBytes: decoded on its own, as the generic path does, bytes kept.
        guard info == nil, let content = tag24Content(),
          let embedded = try? EncodedCBOR(bytes: content), embedded.value.map != nil
        else { return nil }
        info = embedded
      } else if matches(key, Key.readerAuthAll) {
        // A value of the top map sits at depth 1.
        guard readerAuthAll == nil, case .array(let items)? = genericItem(depth: 1) else {
          return nil
        }
        var signatures: [COSESign1] = []
        for item in items {
          guard let signature = try? COSESign1(cbor: item) else { return nil }
          signatures.append(signature)
        }
        readerAuthAll = signatures
      } else {
        return nil
      }
    }
    // §8.3.2.1.2.1: major version 1 (refusals are the generic path's to report).
    guard offset == bytes.count, let version, version.hasPrefix("1."), let docRequests else {
      return nil
    }
    return DeviceRequest(
      readVersion: version, docRequests: docRequests, deviceRequestInfo: info,
      readerAuthAll: readerAuthAll ?? [])
  }

  /// `docRequests` (depth 1), not empty.
  mutating func docRequestArray() -> [DocRequest]? {
    guard let head = head(), head.major == 4, head.argument > 0, head.argument <= remaining else {
      return nil
    }
    var out: [DocRequest] = []
    out.reserveCapacity(head.argument)
    for _ in 0..<head.argument {
      guard let request = docRequest() else { return nil }
      out.append(request)
    }
    return out
  }

  /// `DocRequest` (depth 2).
  mutating func docRequest() -> DocRequest? {
    guard let count = mapCount() else { return nil }
    var items: (bytes: [UInt8], request: ItemsRequest, value: CBOR)? = nil
    var readerAuth: COSESign1? = nil
    var sawReaderAuth = false
    for _ in 0..<count {
      guard let key = textRange() else { return nil }
      if matches(key, Key.itemsRequest) {
        guard items == nil, let content = tag24Content() else { return nil }
        var inner = DirectReader(bytes: content)
        guard let read = inner.itemsRequest() else { return nil }
        items = (content, read.0, read.1)
      } else if matches(key, Key.readerAuth) {
        // A value of the DocRequest map sits at depth 3.
        guard !sawReaderAuth, let item = genericItem(depth: 3),
          let signature = try? COSESign1(cbor: item)
        else { return nil }
        sawReaderAuth = true
        readerAuth = signature
      } else {
        return nil
      }
    }
    guard let items else { return nil }
    return DocRequest(
      itemsRequestBytes: EncodedCBOR(uncheckedBytes: items.bytes, value: items.value),
      itemsRequest: items.request, readerAuth: readerAuth)
  }

  /// `ItemsRequest` (its own encoding, depth 0), with the CBOR value the generic decoder makes.
  mutating func itemsRequest() -> (ItemsRequest, CBOR)? {
    guard let count = mapCount() else { return nil }
    var keys: [CBOR] = []
    var values: [CBOR] = []
    keys.reserveCapacity(count)
    values.reserveCapacity(count)
    var docType: String? = nil
    var nameSpaces: [(nameSpace: String, elements: [ItemsRequest.Element])]? = nil
    var requestInfo: CBORMap? = nil
    for _ in 0..<count {
      guard let key = textRange() else { return nil }
      if matches(key, Key.docType) {
        guard docType == nil, let value = readText() else { return nil }
        docType = value
        keys.append(.textString(ItemsRequest.Keys.docType))
        values.append(.textString(value))
      } else if matches(key, Key.nameSpaces) {
        guard nameSpaces == nil, let read = nameSpaceMap() else { return nil }
        nameSpaces = read.0
        keys.append(.textString(ItemsRequest.Keys.nameSpaces))
        values.append(.map(read.1))
      } else if matches(key, Key.requestInfo) {
        // A value of the ItemsRequest map sits at depth 1.
        guard requestInfo == nil, case .map(let map)? = genericItem(depth: 1) else { return nil }
        requestInfo = map
        keys.append(.textString(ItemsRequest.Keys.requestInfo))
        values.append(.map(map))
      } else {
        return nil
      }
    }
    guard offset == bytes.count, let docType, let nameSpaces else { return nil }
    return (
      ItemsRequest(docType: docType, nameSpaces: nameSpaces, requestInfo: requestInfo),
      .map(CBORMap(uncheckedKeys: keys, values: values))
    )
  }

  /// `NameSpaces` (depth 1): namespace → (element → IntentToRetain), none empty, no key twice.
  mutating func nameSpaceMap()
    -> ([(nameSpace: String, elements: [ItemsRequest.Element])], CBORMap)?
  {
    guard let count = mapCount() else { return nil }
    var spaces: [(nameSpace: String, elements: [ItemsRequest.Element])] = []
    spaces.reserveCapacity(count)
    var spaceRanges: [Range<Int>] = []
    var keys: [CBOR] = []
    var values: [CBOR] = []
    keys.reserveCapacity(count)
    values.reserveCapacity(count)
    for _ in 0..<count {
      // RFC 8949 §5.6: text keys are equal when their UTF-8 bytes are.
      guard let range = textRange(), !spaceRanges.contains(where: { sameBytes($0, range) }),
        let nameSpace = text(range), let elementCount = mapCount(),
        elementCount <= Self.maxElementsPerNameSpace
      else { return nil }
      spaceRanges.append(range)
      var elements: [ItemsRequest.Element] = []
      elements.reserveCapacity(elementCount)
      var elementRanges: [Range<Int>] = []
      elementRanges.reserveCapacity(elementCount)
      var elementPrints: [UInt64] = []
      elementPrints.reserveCapacity(elementCount)
      var elementKeys: [CBOR] = []
      var intents: [CBOR] = []
      elementKeys.reserveCapacity(elementCount)
      intents.reserveCapacity(elementCount)
      for _ in 0..<elementCount {
        guard let elementRange = textRange(),
          !isRepeat(elementRange, among: elementRanges, prints: &elementPrints),
          let identifier = text(elementRange), offset < bytes.count
        else { return nil }
        // IntentToRetain: simple values false (0xf4) and true (0xf5), RFC 8949 §3.3.
        let retain: Bool
        switch bytes[offset] {
        case 0xf4: retain = false
        case 0xf5: retain = true
        default: return nil
        }
        offset += 1
        elementRanges.append(elementRange)
        elements.append(ItemsRequest.Element(identifier, intentToRetain: retain))
        elementKeys.append(.textString(identifier))
        intents.append(.boolean(retain))
      }
      spaces.append((nameSpace, elements))
      keys.append(.textString(nameSpace))
      values.append(.map(CBORMap(uncheckedKeys: elementKeys, values: intents)))
    }
    return (spaces, CBORMap(uncheckedKeys: keys, values: values))
  }
}
