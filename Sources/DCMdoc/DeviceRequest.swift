public import DCCBOR
public import DCCOSE

/// `ItemsRequest` (ISO 18013-5 §8.3.2.1.2.1): the docType and, per namespace, each element with
/// its intent-to-retain flag.
public struct ItemsRequest: Sendable, Hashable {

  /// The CBOR map keys of this structure, named once (ISO 18013-5 §8.3.2.1.2.1).
  enum Keys {
    static let docType = "docType"
    static let nameSpaces = "nameSpaces"
    static let requestInfo = "requestInfo"
    static let all = [docType, nameSpaces, requestInfo]
    static let clause = "ISO 18013-5 §8.3.2.1.2.1"
  }

  /// One requested element.
  public struct Element: Sendable, Hashable {
    /// The data element identifier.
    public let identifier: String
    /// Whether the reader intends to retain the value (`IntentToRetain`).
    public let intentToRetain: Bool

    /// Creates a requested element.
    public init(_ identifier: String, intentToRetain: Bool) {
      self.identifier = identifier
      self.intentToRetain = intentToRetain
    }
  }

  /// The requested document type.
  public let docType: String
  /// Namespaces in request order, each with its elements in request order.
  public let nameSpaces: [(nameSpace: String, elements: [Element])]
  /// `requestInfo`, kept as given (ISO 18013-5 2nd edition carries `DocRequestInfo` here).
  package let requestInfo: CBORMap?

  /// Builds a request.
  public init(
    docType: String, nameSpaces: [(nameSpace: String, elements: [Element])],
    requestInfo: CBORMap? = nil
  ) {
    self.docType = docType
    self.nameSpaces = nameSpaces
    self.requestInfo = requestInfo
  }

  /// Reads an ItemsRequest map.
  package init(cbor: CBOR) throws(MdocError) {
    // Error text is only built when something is wrong: the success path reads plain values.
    let (docType, spaces, requestInfo) = try reading("ItemsRequest") {
      () throws(CBORError) -> (String, CBORMap, CBORMap?) in
      let map = try CBORMapReader(
        cbor, structure: "ItemsRequest", clause: Keys.clause, knownKeys: Keys.all)
      return (
        try map.required(Keys.docType, as: String.self),
        try map.requiredMap(Keys.nameSpaces).map,
        try map.optionalMap(Keys.requestInfo)?.map
      )
    }
    // The namespace and element maps are data keyed by the reader's names, not structures.
    var nameSpaces: [(nameSpace: String, elements: [Element])] = []
    nameSpaces.reserveCapacity(spaces.count)
    // By index over the kept key and value arrays: the map iterator's pair copies are avoided.
    let spaceKeys = spaces.keys
    let spaceValues = spaces.values
    for index in spaceKeys.indices {
      let key = spaceKeys[index]
      guard let ns = key.text, let inner = spaceValues[index].map, !inner.isEmpty else {
        throw MdocError(
          .malformed,
          "ItemsRequest.nameSpaces[\(key)] must map a namespace name to a non-empty map of elements"
        )
      }
      var elements: [Element] = []
      elements.reserveCapacity(inner.count)
      let elementKeys = inner.keys
      let intents = inner.values
      for position in elementKeys.indices {
        let elementKey = elementKeys[position]
        guard let id = elementKey.text, let retain = intents[position].bool else {
          throw MdocError(
            .malformed,
            "ItemsRequest.nameSpaces[\(ns)][\(elementKey)] must map an element name to IntentToRetain (bool)"
          )
        }
        elements.append(Element(id, intentToRetain: retain))
      }
      nameSpaces.append((ns, elements))
    }
    guard !nameSpaces.isEmpty else {
      throw MdocError(.malformed, "ItemsRequest must request at least one element")
    }
    self.docType = docType
    self.nameSpaces = nameSpaces
    self.requestInfo = requestInfo
  }

  /// The map, in CDDL order.
  package var cbor: CBOR {
    var map: CBORMap = [.textString(Keys.docType): .textString(docType)]
    var spaces = CBORMap()
    for (ns, elements) in nameSpaces {
      var inner = CBORMap()
      for element in elements {
        inner[key: .textString(element.identifier)] = .boolean(element.intentToRetain)
      }
      spaces[key: .textString(ns)] = .map(inner)
    }
    map[Keys.nameSpaces] = .map(spaces)
    if let requestInfo { map[Keys.requestInfo] = .map(requestInfo) }
    return .map(map)
  }

  /// Every requested (namespace, element) pair, in order.
  public var requestedElements: [(nameSpace: String, element: Element)] {
    nameSpaces.flatMap { ns in ns.elements.map { (ns.nameSpace, $0) } }
  }

  public static func == (lhs: ItemsRequest, rhs: ItemsRequest) -> Bool {
    lhs.cbor == rhs.cbor
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(cbor) }
}

/// `DocRequest = {"itemsRequest": ItemsRequestBytes, ? "readerAuth": ReaderAuth}` (§8.3.2.1.2.1).
public struct DocRequest: Sendable, Hashable {

  /// The CBOR map keys of this structure, named once (ISO 18013-5 §8.3.2.1.2.1).
  enum Keys {
    static let itemsRequest = "itemsRequest"
    static let readerAuth = "readerAuth"
    static let all = [itemsRequest, readerAuth]
    static let clause = "ISO 18013-5 §8.3.2.1.2.1"
  }

  /// `ItemsRequestBytes`: the items request with its exact bytes (they are signed by readerAuth).
  package let itemsRequestBytes: EncodedCBOR
  /// The decoded items request.
  public let itemsRequest: ItemsRequest
  /// Reader authentication over `ReaderAuthenticationBytes`, detached (§9.1.4).
  public let readerAuth: COSESign1?

  /// Builds a doc request; the items request is encoded here.
  public init(itemsRequest: ItemsRequest, readerAuth: COSESign1? = nil) {
    self.itemsRequest = itemsRequest
    self.itemsRequestBytes = EncodedCBOR(mdoc: itemsRequest.cbor)
    self.readerAuth = readerAuth
  }

  init(itemsRequestBytes: EncodedCBOR, itemsRequest: ItemsRequest, readerAuth: COSESign1?) {
    self.itemsRequestBytes = itemsRequestBytes
    self.itemsRequest = itemsRequest
    self.readerAuth = readerAuth
  }

  /// Reads a DocRequest map.
  package init(cbor: CBOR) throws(MdocError) {
    let (bytes, readerAuthItem) = try reading("DocRequest") {
      () throws(CBORError) -> (EncodedCBOR, CBOR?) in
      let map = try CBORMapReader(
        cbor, structure: "DocRequest", clause: Keys.clause, knownKeys: Keys.all)
      // ItemsRequestBytes: decoded here once, its bytes kept for ReaderAuthentication (§9.1.4).
      return (
        try map.requiredTag24(Keys.itemsRequest),
        try map.optional(Keys.readerAuth, as: CBOR.self)
      )
    }
    itemsRequestBytes = bytes
    itemsRequest = try ItemsRequest(cbor: bytes.value)
    do {
      readerAuth = try readerAuthItem.map { (item) throws(COSEError) in try COSESign1(cbor: item) }
    } catch {
      throw MdocError(.malformed, "DocRequest.readerAuth: \(error.reason)", underlying: error)
    }
  }

  /// The map, in CDDL order, with the items request's original bytes.
  package var cbor: CBOR {
    var map: CBORMap = [.textString(Keys.itemsRequest): itemsRequestBytes.tag24]
    if let readerAuth { map[Keys.readerAuth] = readerAuth.cbor() }
    return .map(map)
  }
}

/// One use case of a `DeviceRequestInfo` (ISO 18013-5 2nd edition): alternatives expressed as
/// sets of indexes into `docRequests`.
public struct UseCase: Sendable, Hashable {

  /// The CBOR map keys of this structure, named once (ISO 18013-5 §8.3.2.1.2.1).
  enum Keys {
    static let mandatory = "mandatory"
    static let documentSets = "documentSets"
    static let purposeHints = "purposeHints"
    static let all = [mandatory, documentSets, purposeHints]
    static let clause = "ISO 18013-5 §8.3.2.1.2.1 (2nd edition, UseCase)"
  }

  /// Whether the use case must be satisfied.
  public let mandatory: Bool
  /// Alternative sets of doc request indexes; satisfying any one set satisfies the use case.
  public let documentSets: [[Int]]
  /// Purpose hints, by controller id.
  package let purposeHints: [String: Int]

  /// Creates a use case.
  public init(mandatory: Bool, documentSets: [[Int]], purposeHints: [String: Int] = [:]) {
    self.mandatory = mandatory
    self.documentSets = documentSets
    self.purposeHints = purposeHints
  }

  init(cbor: CBOR) throws(CBORError) {
    let map = try CBORMapReader(
      cbor, structure: "UseCase", clause: Keys.clause, knownKeys: Keys.all)
    mandatory = try map.required(Keys.mandatory, as: Bool.self)
    documentSets = try map.required(Keys.documentSets, as: [[Int]].self)
    purposeHints = try map.optional(Keys.purposeHints, as: [String: Int].self) ?? [:]
  }

  var cbor: CBOR {
    var map: CBORMap = [
      .textString(Keys.mandatory): .boolean(mandatory),
      .textString(Keys.documentSets): .array(documentSets.map { .array($0.map { CBOR($0) }) }),
    ]
    if !purposeHints.isEmpty {
      map[Keys.purposeHints] = .map(
        CBORMap(
          purposeHints.sorted { $0.key < $1.key }.map { (.textString($0.key), CBOR($0.value)) }))
    }
    return .map(map)
  }
}

/// `DeviceRequest` (ISO 18013-5 §8.3.2.1.2.1; version 1.1 adds `deviceRequestInfo` and
/// `readerAuthAll`).
public struct DeviceRequest: Sendable, Hashable {

  /// The CBOR map keys of this structure, named once (ISO 18013-5 §8.3.2.1.2.1).
  enum Keys {
    static let version = "version"
    static let docRequests = "docRequests"
    static let deviceRequestInfo = "deviceRequestInfo"
    static let readerAuthAll = "readerAuthAll"
    static let useCases = "useCases"
    static let all = [version, docRequests, deviceRequestInfo, readerAuthAll]
    static let infoKeys = [useCases]
    static let clause = "ISO 18013-5 §8.3.2.1.2.1"
  }

  /// "1.0" or "1.1".
  package let version: String
  /// The document requests, in order.
  public let docRequests: [DocRequest]
  /// `DeviceRequestInfoBytes`, kept exactly (it is signed by readerAuthAll).
  package let deviceRequestInfo: EncodedCBOR?
  /// Signatures over all doc requests at once (`ReaderAuthenticationAll`).
  public let readerAuthAll: [COSESign1]

  /// Builds a request. Version 1.1 is used when `deviceRequestInfo` or `readerAuthAll` is set.
  public init(
    docRequests: [DocRequest], useCases: [UseCase] = [], readerAuthAll: [COSESign1] = []
  ) {
    let info: EncodedCBOR? =
      useCases.isEmpty
      ? nil : EncodedCBOR(mdoc: .map([.textString(Keys.useCases): .array(useCases.map(\.cbor))]))
    self.init(docRequests: docRequests, deviceRequestInfo: info, readerAuthAll: readerAuthAll)
  }

  /// Builds a request from already encoded parts.
  package init(
    docRequests: [DocRequest], deviceRequestInfo: EncodedCBOR?, readerAuthAll: [COSESign1]
  ) {
    self.version = deviceRequestInfo == nil && readerAuthAll.isEmpty ? "1.0" : "1.1"
    self.docRequests = docRequests
    self.deviceRequestInfo = deviceRequestInfo
    self.readerAuthAll = readerAuthAll
  }

  /// Reads a DeviceRequest from its bytes.
  public init(bytes: [UInt8]) throws(MdocError) {
    let cbor = try reading("DeviceRequest") { () throws(CBORError) in try CBOR.decode(bytes) }
    try self.init(cbor: cbor)
  }

  /// Reads a DeviceRequest map.
  package init(cbor: CBOR) throws(MdocError) {
    let (version, docItems, info, authAll) = try reading("DeviceRequest") {
      () throws(CBORError) -> (String, [CBOR], EncodedCBOR?, [CBOR]?) in
      let map = try CBORMapReader(
        cbor, structure: "DeviceRequest", clause: Keys.clause, knownKeys: Keys.all)
      return (
        try map.required(Keys.version, as: String.self),
        try map.required(Keys.docRequests, as: [CBOR].self),
        // DeviceRequestInfoBytes: decoded once, its bytes kept for readerAuthAll.
        try map.optionalTag24(Keys.deviceRequestInfo),
        try map.optional(Keys.readerAuthAll, as: [CBOR].self)
      )
    }
    // §8.3.2.1.2.1: the major version must be 1; minor versions are forward compatible.
    guard version.hasPrefix("1.") else {
      throw MdocError(.malformed, "DeviceRequest version \(version) is not supported")
    }
    guard !docItems.isEmpty else { throw MdocError(.malformed, "DeviceRequest has no docRequests") }
    self.version = version
    var docRequests: [DocRequest] = []
    for (index, item) in docItems.enumerated() {
      do {
        docRequests.append(try DocRequest(cbor: item))
      } catch {
        throw MdocError(error.code, "docRequests[\(index)]: \(error.reason)", underlying: error)
      }
    }
    self.docRequests = docRequests
    if let info {
      guard info.value.map != nil else {
        throw MdocError(.malformed, "deviceRequestInfo must hold a map")
      }
    }
    deviceRequestInfo = info
    var all: [COSESign1] = []
    for item in authAll ?? [] {
      do {
        all.append(try COSESign1(cbor: item))
      } catch {
        throw MdocError(.malformed, "readerAuthAll: \(error.reason)", underlying: error)
      }
    }
    readerAuthAll = all
  }

  /// The use cases of `deviceRequestInfo`, empty when there are none.
  public var useCases: [UseCase] {
    get throws(MdocError) {
      guard let info = deviceRequestInfo else { return [] }
      return try reading("DeviceRequestInfo.useCases") { () throws(CBORError) -> [UseCase] in
        let map = try CBORMapReader(
          info.value, structure: "DeviceRequestInfo", clause: Keys.clause,
          knownKeys: Keys.infoKeys)
        var out: [UseCase] = []
        for item in try map.optional(Keys.useCases, as: [CBOR].self) ?? [] {
          out.append(try UseCase(cbor: item))
        }
        return out
      }
    }
  }

  /// The map, in CDDL order, keeping every signed part's original bytes.
  package var cbor: CBOR {
    var map: CBORMap = [
      .textString(Keys.version): .textString(version),
      .textString(Keys.docRequests): .array(docRequests.map(\.cbor)),
    ]
    if let deviceRequestInfo { map[Keys.deviceRequestInfo] = deviceRequestInfo.tag24 }
    if !readerAuthAll.isEmpty { map[Keys.readerAuthAll] = .array(readerAuthAll.map { $0.cbor() }) }
    return .map(map)
  }

  /// The encoding.
  public var bytes: [UInt8] { cbor.mdocEncoded }
}
