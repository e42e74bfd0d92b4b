package import DCCBOR

/// One disclosed element of a ZK document (`ZkSignedItem = {"elementIdentifier": tstr,
/// "elementValue": any}`; the value is a public input of the proof, not a signed item).
package struct ZkSignedItem: Sendable, Hashable {
  /// `elementIdentifier`.
  package let elementIdentifier: String
  /// `elementValue`.
  package let elementValue: CBOR

  /// Creates an item.
  package init(elementIdentifier: String, elementValue: CBOR) {
    self.elementIdentifier = elementIdentifier
    self.elementValue = elementValue
  }

  /// The value's encoding, as the circuit compares it with the IssuerSignedItem's (longfellow-zk
  /// `mdoc_zk.h` `RequestedAttribute.cbor_value`); the mdoc encoder writes preferred forms.
  package var elementValueBytes: [UInt8] { elementValue.mdocEncoded }
}

/// `ZkDocumentData` (ISO 18013-5 second edition, not public; the shape every independent
/// implementation agrees on: Google's verifier service `reference/verifier-service/server/zk/cbor.go`
/// `zkDocumentDataIso`, multipaz `ZkDocumentData.kt`, EUDI `ZkDocumentData.swift`, and the two
/// Google Wallet captures `post1.json` / `post2.json`):
/// `{"zkSystemId": tstr, "docType": tstr, "timestamp": tdate, "issuerSigned": {* NameSpace =>
/// [+ ZkSignedItem]}, ? "deviceSigned": {...}, "msoX5chain": bstr / [+ bstr]}`.
package struct ZkDocumentData: Sendable, Hashable {

  /// The CBOR map keys of this structure, named once.
  enum Keys {
    static let zkSystemId = "zkSystemId"
    static let docType = "docType"
    static let timestamp = "timestamp"
    static let issuerSigned = "issuerSigned"
    static let deviceSigned = "deviceSigned"
    static let msoX5chain = "msoX5chain"
    static let elementIdentifier = "elementIdentifier"
    static let elementValue = "elementValue"
    static let all = [zkSystemId, docType, timestamp, issuerSigned, deviceSigned, msoX5chain]
    static let clause = "ISO 18013-5 2nd edition (ZkDocumentData)"
  }

  /// The most disclosed elements one ZK document may carry (Longfellow circuits take 1 to 4).
  package static let maxElements = 16
  /// The most certificates in `msoX5chain`.
  package static let maxCertificates = 10

  /// `zkSystemId`: the ZkSystemSpec of the request the proof was made under.
  package let zkSystemId: String
  /// `docType`.
  package let docType: String
  /// `timestamp`: the instant the proof says the MSO was valid at, exactly as sent (a tdate
  /// `YYYY-MM-DDTHH:MM:SSZ`, the circuit's "now" input).
  package let timestamp: String
  /// `issuerSigned`: the disclosed elements by namespace, in order.
  package let issuerSigned: [(nameSpace: String, items: [ZkSignedItem])]
  /// `deviceSigned`: device-signed elements by namespace (empty for Longfellow: its circuit
  /// proves empty device-signed namespaces).
  package let deviceSigned: [(nameSpace: String, items: [ZkSignedItem])]
  /// `msoX5chain`: the document signer chain, leaf first, as DER.
  package let msoX5chain: [[UInt8]]
  /// Whether `msoX5chain` came as an array (else one byte string).
  let chainIsArray: Bool

  /// Creates document data.
  package init(
    zkSystemId: String, docType: String, timestamp: String,
    issuerSigned: [(nameSpace: String, items: [ZkSignedItem])],
    deviceSigned: [(nameSpace: String, items: [ZkSignedItem])] = [], msoX5chain: [[UInt8]]
  ) {
    self.zkSystemId = zkSystemId
    self.docType = docType
    self.timestamp = timestamp
    self.issuerSigned = issuerSigned
    self.deviceSigned = deviceSigned
    self.msoX5chain = msoX5chain
    chainIsArray = msoX5chain.count != 1
  }

  /// Reads a ZkDocumentData map.
  package init(cbor: CBOR) throws(MdocError) {
    let ctx = "ZkDocumentData"
    let fields = try reading(ctx) {
      () throws(CBORError) -> (String, String, CBOR, CBORMap, CBORMap?, CBOR) in
      let map = try CBORMapReader(cbor, structure: ctx, clause: Keys.clause, knownKeys: Keys.all)
      return (
        try map.required(Keys.zkSystemId, as: String.self),
        try map.required(Keys.docType, as: String.self),
        try map.item(Keys.timestamp),
        try map.requiredMap(Keys.issuerSigned).map,
        try map.optionalMap(Keys.deviceSigned)?.map,
        try map.item(Keys.msoX5chain)
      )
    }
    zkSystemId = fields.0
    docType = fields.1
    timestamp = try Self.timestamp(fields.2)
    issuerSigned = try Self.items(fields.3, ctx: "\(ctx).issuerSigned")
    deviceSigned =
      try fields.4.map { (map) throws(MdocError) in
        try Self.items(map, ctx: "\(ctx).deviceSigned")
      } ?? []
    (msoX5chain, chainIsArray) = try Self.chain(fields.5)
    guard !zkSystemId.isEmpty, !docType.isEmpty else {
      throw MdocError(.malformed, "\(ctx): zkSystemId and docType must not be empty")
    }
  }

  /// `tdate` (RFC 8949 §3.4.1, tag 0) with whole seconds in UTC: exactly 20 characters
  /// `YYYY-MM-DDTHH:MM:SSZ`, the form the Longfellow circuit compares (longfellow-zk
  /// `reference/verifier-service/server/zk/proofs.go` `TIMESTAMP_LEN`).
  static func timestamp(_ item: CBOR) throws(MdocError) -> String {
    guard case .tagged(0, .textString(let text)) = item.unwrapped, isTDate(text) else {
      throw MdocError(
        .malformed, "ZkDocumentData.timestamp must be a tdate YYYY-MM-DDTHH:MM:SSZ (tag 0)")
    }
    return text
  }

  /// Whether `text` is `YYYY-MM-DDTHH:MM:SSZ` with digits where digits go.
  package static func isTDate(_ text: String) -> Bool {
    let chars = Array(text.utf8)
    guard chars.count == 20 else { return false }
    let shape = Array("dddd-dd-ddTdd:dd:ddZ".utf8)
    for (char, expected) in zip(chars, shape) {
      if expected == UInt8(ascii: "d") {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(char) else { return false }
      } else if char != expected {
        return false
      }
    }
    return true
  }

  private static func items(_ map: CBORMap, ctx: String) throws(MdocError) -> [(
    nameSpace: String, items: [ZkSignedItem]
  )] {
    var out: [(nameSpace: String, items: [ZkSignedItem])] = []
    var total = 0
    for (key, value) in map {
      guard let ns = key.text, let array = value.array, !array.isEmpty else {
        throw MdocError(
          .malformed, "\(ctx) must map each namespace to a non-empty array of items")
      }
      total += array.count
      guard total <= maxElements else {
        throw MdocError(.malformed, "\(ctx) holds more than \(maxElements) elements")
      }
      var items: [ZkSignedItem] = []
      for entry in array {
        let pair = try reading("\(ctx)[\(ns)]") { () throws(CBORError) -> (String, CBOR) in
          let reader = try CBORMapReader(
            entry, structure: "ZkSignedItem", clause: Keys.clause,
            knownKeys: [Keys.elementIdentifier, Keys.elementValue])
          return (
            try reader.required(Keys.elementIdentifier, as: String.self),
            try reader.item(Keys.elementValue)
          )
        }
        guard !items.contains(where: { $0.elementIdentifier == pair.0 }) else {
          throw MdocError(.malformed, "\(ctx)[\(ns)] names \(pair.0) twice")
        }
        items.append(ZkSignedItem(elementIdentifier: pair.0, elementValue: pair.1))
      }
      out.append((ns, items))
    }
    return out
  }

  /// `msoX5chain`: one certificate as a byte string, or an array of them (COSE x5chain shape,
  /// RFC 9360 §2; Google's captures send one byte string).
  private static func chain(_ item: CBOR) throws(MdocError) -> ([[UInt8]], Bool) {
    if let single = item.bytes, !single.isEmpty { return ([single], false) }
    if let array = item.array, !array.isEmpty, array.count <= maxCertificates {
      var certificates: [[UInt8]] = []
      for member in array {
        guard let der = member.bytes, !der.isEmpty else { break }
        certificates.append(der)
      }
      if certificates.count == array.count { return (certificates, true) }
    }
    throw MdocError(
      .malformed,
      "ZkDocumentData.msoX5chain must be a certificate or an array of 1 to \(maxCertificates)")
  }

  /// Every disclosed element, flattened in order.
  package var disclosedElements: [(nameSpace: String, item: ZkSignedItem)] {
    issuerSigned.flatMap { entry in entry.items.map { (entry.nameSpace, $0) } }
  }

  /// The map, in the order of Google's captures.
  package var cbor: CBOR {
    func spaces(_ list: [(nameSpace: String, items: [ZkSignedItem])]) -> CBOR {
      .map(
        CBORMap(
          list.map { entry in
            (
              .textString(entry.nameSpace),
              .array(
                entry.items.map {
                  [
                    .textString(Keys.elementIdentifier): .textString($0.elementIdentifier),
                    .textString(Keys.elementValue): $0.elementValue,
                  ]
                })
            )
          }))
    }
    var map: CBORMap = [
      .textString(Keys.docType): .textString(docType),
      .textString(Keys.timestamp): .tagged(0, .textString(timestamp)),
      .textString(Keys.msoX5chain):
        chainIsArray ? .array(msoX5chain.map { .byteString($0) }) : .byteString(msoX5chain[0]),
      .textString(Keys.zkSystemId): .textString(zkSystemId),
      .textString(Keys.issuerSigned): spaces(issuerSigned),
    ]
    if !deviceSigned.isEmpty { map[Keys.deviceSigned] = spaces(deviceSigned) }
    return .map(map)
  }

  package static func == (lhs: ZkDocumentData, rhs: ZkDocumentData) -> Bool {
    lhs.cbor == rhs.cbor
  }

  package func hash(into hasher: inout Hasher) { hasher.combine(cbor) }
}

/// `ZkDocument = {"documentData": #6.24(bstr .cbor ZkDocumentData), "proof": bstr}` (ISO 18013-5
/// second edition, in `DeviceResponse.zkDocuments`; Google's verifier service `cbor.go`
/// `zkDocumentIso`, multipaz `ZkDocument.kt`, EUDI `ZkDocument.swift`, Google Wallet's captures).
package struct ZkDocument: Sendable, Hashable {

  /// The CBOR map keys of this structure, named once.
  enum Keys {
    static let documentData = "documentData"
    static let proof = "proof"
    static let all = [documentData, proof]
    static let clause = "ISO 18013-5 2nd edition (ZkDocument)"
  }

  /// The largest proof accepted: Longfellow proofs are 320 to 370 KB (longfellow-zk.md); four
  /// times the largest leaves room for larger circuits.
  package static let maxProofLength = 2 << 20

  /// `documentData`'s bytes, kept as received.
  package let documentDataBytes: EncodedCBOR
  /// The decoded document data: the proof's public inputs.
  package let documentData: ZkDocumentData
  /// `proof`: the zero-knowledge proof bytes.
  package let proof: [UInt8]

  /// Creates a ZK document; the document data is encoded here.
  package init(documentData: ZkDocumentData, proof: [UInt8]) {
    self.documentData = documentData
    documentDataBytes = EncodedCBOR(mdoc: documentData.cbor)
    self.proof = proof
  }

  /// Reads a ZkDocument map.
  package init(cbor: CBOR) throws(MdocError) {
    let ctx = "ZkDocument"
    let (data, proof) = try reading(ctx) { () throws(CBORError) -> (EncodedCBOR, [UInt8]) in
      let map = try CBORMapReader(cbor, structure: ctx, clause: Keys.clause, knownKeys: Keys.all)
      return (
        try map.requiredTag24(Keys.documentData),
        try map.required(Keys.proof, as: ByteString.self).bytes
      )
    }
    guard !proof.isEmpty, proof.count <= Self.maxProofLength else {
      throw MdocError(
        .malformed, "\(ctx).proof must be 1 to \(Self.maxProofLength) bytes, not \(proof.count)")
    }
    documentDataBytes = data
    documentData = try ZkDocumentData(cbor: data.value)
    self.proof = proof
  }

  /// The map, with the document data's kept bytes.
  package var cbor: CBOR {
    [
      .textString(Keys.proof): .byteString(proof),
      .textString(Keys.documentData): documentDataBytes.tag24,
    ]
  }
}
