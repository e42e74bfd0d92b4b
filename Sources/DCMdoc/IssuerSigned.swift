public import DCCBOR
public import DCCOSE
package import DCCrypto
public import DCX509
import Foundation

/// `IssuerSignedItem` (ISO 18013-5 §8.3.2.1.2.2) with the exact bytes its digest covers.
public struct IssuerSignedItem: Sendable, Hashable {

  /// The CBOR map keys of this structure, named once (ISO 18013-5 §8.3.2.1.2.2).
  enum Keys {
    static let digestID = "digestID"
    static let random = "random"
    static let elementIdentifier = "elementIdentifier"
    static let elementValue = "elementValue"
    static let all = [digestID, random, elementIdentifier, elementValue]
    static let clause = "ISO 18013-5 §8.3.2.1.2.2"
  }

  /// The item's encoding: the content of `IssuerSignedItemBytes = #6.24(bstr .cbor ...)`.
  package let encoded: EncodedCBOR
  package let digestID: UInt64
  /// The salt, at least 16 bytes when issued here (§9.1.2.5).
  package let random: [UInt8]
  /// `elementIdentifier`: the data element's name within its namespace, e.g. `family_name`.
  public let elementIdentifier: String
  /// `elementValue`: the data element's value, of the type its namespace defines.
  public let elementValue: CBOR

  /// Reads an item from its tag 24 wrapper.
  package init(taggedItem: CBOR) throws(MdocError) {
    let encoded = try reading("IssuerSignedItemBytes") { () throws(CBORError) in
      try taggedItem.requireTag24("IssuerSignedItemBytes")
    }
    let ctx = "IssuerSignedItem"
    let parsed = try reading(ctx) { () throws(CBORError) -> (UInt64, [UInt8], String, CBOR) in
      let map = try CBORMapReader(
        encoded.value, structure: ctx, clause: Keys.clause, knownKeys: Keys.all)
      return (
        try map.required(Keys.digestID, as: UInt64.self),
        try map.required(Keys.random, as: ByteString.self).bytes,
        try map.required(Keys.elementIdentifier, as: String.self),
        try map.required(Keys.elementValue, as: CBOR.self)
      )
    }
    self.encoded = encoded
    (digestID, random, elementIdentifier, elementValue) = parsed
  }

  /// Builds and encodes an item (issuer side), members in CDDL order.
  package init(digestID: UInt64, random: [UInt8], elementIdentifier: String, elementValue: CBOR) {
    self.digestID = digestID
    self.random = random
    self.elementIdentifier = elementIdentifier
    self.elementValue = elementValue
    encoded = EncodedCBOR(mdoc: [
      .textString(Keys.digestID): .unsigned(digestID),
      .textString(Keys.random): .byteString(random),
      .textString(Keys.elementIdentifier): .textString(elementIdentifier),
      .textString(Keys.elementValue): elementValue,
    ])
  }

  /// `IssuerSignedItemBytes`, the tag 24 item.
  package var taggedItem: CBOR { encoded.tag24 }

  /// The digest the MSO holds for this item: over the encoded `IssuerSignedItemBytes` (§9.1.2.5).
  package func digest(_ algorithm: DigestAlgorithm) -> [UInt8] {
    algorithm.hash(Self.taggedItemBytes(encoded.bytes))
  }

  /// The encoding of `#6.24(bstr .cbor IssuerSignedItem)` for an item's kept encoding: the tag
  /// 24 head, the byte string head and the bytes (RFC 8949 §3.4.5.1, shortest heads as
  /// `taggedItem.encoded()` writes them), written into one buffer of the right size rather
  /// than through a `CBOR` value and the encoder.
  static func taggedItemBytes(_ item: [UInt8]) -> [UInt8] {
    // Tag 24 takes 2 bytes; a byte string head at most 9.
    var writer = CBORWriter(capacity: item.count + 11)
    writer.tag24(item)
    return writer.bytes
  }
}

/// `IssuerSigned = {? "nameSpaces": IssuerNameSpaces, "issuerAuth": IssuerAuth}` (§8.3.2.1.2.2).
public struct IssuerSigned: Sendable, Hashable {

  /// The CBOR map keys of this structure, named once (ISO 18013-5 §8.3.2.1.2.2).
  enum Keys {
    static let nameSpaces = "nameSpaces"
    static let issuerAuth = "issuerAuth"
    static let all = [nameSpaces, issuerAuth]
    static let clause = "ISO 18013-5 §8.3.2.1.2.2"
  }

  /// Items by namespace, in the order received.
  public let nameSpaces: [(nameSpace: String, items: [IssuerSignedItem])]
  /// The COSE_Sign1 over `MobileSecurityObjectBytes`, with the document signer chain in x5chain.
  public let issuerAuth: COSESign1
  /// The decoded MSO.
  public let mso: MobileSecurityObject
  /// Whether `issuerAuth` came before `nameSpaces` in the received map, so a decoded value
  /// re-encodes to its original bytes (the CDDL order is nameSpaces first).
  private var issuerAuthFirst = false

  /// Assembles an IssuerSigned; the MSO is read from issuerAuth's payload.
  package init(nameSpaces: [(nameSpace: String, items: [IssuerSignedItem])], issuerAuth: COSESign1)
    throws(MdocError)
  {
    guard let payload = issuerAuth.payload else {
      throw MdocError(.malformed, "issuerAuth has no payload (the MSO must be attached)")
    }
    let item = try reading("issuerAuth payload") { () throws(CBORError) in try CBOR.decode(payload)
    }
    self.nameSpaces = nameSpaces
    self.issuerAuth = issuerAuth
    self.mso = try MobileSecurityObject(taggedBytes: item)
  }

  /// Reads an IssuerSigned map.
  package init(cbor: CBOR) throws(MdocError) {
    let ctx = "IssuerSigned"
    let (spaces, authItem, authFirst) = try reading(ctx) {
      () throws(CBORError) -> ([(String, [CBOR])], CBOR, Bool) in
      let map = try CBORMapReader(cbor, structure: ctx, clause: Keys.clause, knownKeys: Keys.all)
      var spaces: [(String, [CBOR])] = []
      if let ns = try map.optionalMap(Keys.nameSpaces) {
        // IssuerNameSpaces is data keyed by namespace name, read in the order received.
        for (key, items) in ns.map {
          let name = try key.requireText("\(ctx).nameSpaces key")
          let array = try items.requireArray("\(ctx).nameSpaces[\(name)]")
          guard !array.isEmpty else {
            throw CBORError(
              .typeMismatch, reason: "\(ctx).nameSpaces[\(name)]: at least one item is required")
          }
          spaces.append((name, array))
        }
      }
      return (
        spaces, try map.required(Keys.issuerAuth, as: CBOR.self),
        map.map.keys.first == .textString(Keys.issuerAuth)
      )
    }
    var nameSpaces: [(nameSpace: String, items: [IssuerSignedItem])] = []
    for (name, items) in spaces {
      var parsed: [IssuerSignedItem] = []
      for item in items { parsed.append(try IssuerSignedItem(taggedItem: item)) }
      nameSpaces.append((name, parsed))
    }
    let auth: COSESign1
    do {
      auth = try COSESign1(cbor: authItem)
    } catch {
      throw MdocError(.malformed, "issuerAuth: \(error.reason)", underlying: error)
    }
    try self.init(nameSpaces: nameSpaces, issuerAuth: auth)
    issuerAuthFirst = authFirst && !nameSpaces.isEmpty
  }

  /// Reads an IssuerSigned from its bytes.
  public init(bytes: [UInt8]) throws(MdocError) {
    let cbor = try reading("IssuerSigned") { () throws(CBORError) in try CBOR.decode(bytes) }
    try self.init(cbor: cbor)
  }

  /// The map, with every item's and the MSO's original bytes.
  package var cbor: CBOR {
    var map = CBORMap()
    if issuerAuthFirst { map[Keys.issuerAuth] = issuerAuth.cbor() }
    if !nameSpaces.isEmpty {
      map[Keys.nameSpaces] = .map(
        CBORMap(nameSpaces.map { (.textString($0.nameSpace), .array($0.items.map(\.taggedItem))) }))
    }
    if !issuerAuthFirst { map[Keys.issuerAuth] = issuerAuth.cbor() }
    return .map(map)
  }

  /// The encoding: the same bytes as encoding `cbor`, written directly (see `write(to:)`).
  public var bytes: [UInt8] {
    var writer = CBORWriter(capacity: encodedSizeEstimate)
    write(to: &writer)
    return writer.bytes
  }

  /// Roughly the size of the encoding: the kept item and MSO bytes, and room for the rest
  /// (headers with the x5chain certificates, names), so that writing does not grow the buffer
  /// (each growth copies everything written so far, a 20 KB portrait included).
  var encodedSizeEstimate: Int {
    var size = 4096 + (issuerAuth.payload?.count ?? 0) + issuerAuth.signature.count
    for (_, items) in nameSpaces {
      // By index: only the kept bytes are read, the item (its decoded value) is not copied.
      for index in items.indices { size += items[index].encoded.bytes.count + 8 }
    }
    return size
  }

  /// Writes the map that `cbor` holds, without building it: every IssuerSignedItemBytes is its
  /// kept encoding (ISO 18013-5 §8.3.2.1.2.2: the digests cover those exact bytes), issuerAuth
  /// its COSE_Sign1 with the protected header and the MSO as kept.
  func write(to writer: inout CBORWriter) {
    // A namespace listed twice (possible through the public initialiser) collapses into one
    // map key in `cbor`; that rare shape is written from the tree.
    for index in nameSpaces.indices.dropFirst()
    where nameSpaces[..<index].contains(where: { $0.nameSpace == nameSpaces[index].nameSpace }) {
      writer.value(cbor, encoder: mdocEncoder)
      return
    }
    writer.mapHead(count: nameSpaces.isEmpty ? 1 : 2)
    if issuerAuthFirst { writeIssuerAuth(to: &writer) }
    if !nameSpaces.isEmpty {
      writer.text(Keys.nameSpaces)
      writer.mapHead(count: nameSpaces.count)
      for (name, items) in nameSpaces {
        writer.text(name)
        writer.arrayHead(count: items.count)
        // By index: only the kept bytes are read, the item (its decoded value) is not copied.
        for index in items.indices { writer.tag24(items[index].encoded.bytes) }
      }
    }
    if !issuerAuthFirst { writeIssuerAuth(to: &writer) }
  }

  private func writeIssuerAuth(to writer: inout CBORWriter) {
    writer.text(Keys.issuerAuth)
    writer.value(issuerAuth.cbor(), encoder: mdocEncoder)
  }

  /// The docType the MSO names.
  public var docType: String { mso.docType }

  /// The document signer chain from issuerAuth's x5chain, leaf first.
  public func documentSignerChain() throws(MdocError) -> [Certificate] {
    try issuerAuth.x5chainCertificates(
      failing: .malformed, label: "issuerAuth", missingNote: " (ISO 18013-5 §9.1.2.4)",
      certificateLabel: "issuerAuth x5chain certificate")
  }

  /// The item for an element, if present.
  public func item(nameSpace: String, element: String) -> IssuerSignedItem? {
    nameSpaces.first { $0.nameSpace == nameSpace }?.items.first { $0.elementIdentifier == element }
  }

  /// A copy holding only the chosen elements (selective disclosure, §9.1.2.5); namespaces left
  /// empty are dropped. Order follows this document.
  public func disclosing(_ elements: [String: Set<String>]) -> IssuerSigned {
    let kept = nameSpaces.compactMap { ns -> (nameSpace: String, items: [IssuerSignedItem])? in
      guard let wanted = elements[ns.nameSpace] else { return nil }
      let items = ns.items
      // A namespace disclosed whole keeps its array (no item is copied); otherwise the items
      // before the first one left out are taken as they are and the rest filtered.
      guard let dropped = items.firstIndex(where: { !wanted.contains($0.elementIdentifier) })
      else { return items.isEmpty ? nil : (ns.nameSpace, items) }
      var filtered = Array(items[..<dropped])
      filtered += items[(dropped + 1)...].filter { wanted.contains($0.elementIdentifier) }
      return filtered.isEmpty ? nil : (ns.nameSpace, filtered)
    }
    return IssuerSigned(unchecked: kept, issuerAuth: issuerAuth, mso: mso)
  }

  init(
    unchecked nameSpaces: [(nameSpace: String, items: [IssuerSignedItem])], issuerAuth: COSESign1,
    mso: MobileSecurityObject
  ) {
    self.nameSpaces = nameSpaces
    self.issuerAuth = issuerAuth
    self.mso = mso
  }

  public static func == (lhs: IssuerSigned, rhs: IssuerSigned) -> Bool { lhs.bytes == rhs.bytes }
  public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}

extension COSESign1 {
  /// The certificates of the x5chain header (RFC 9360 §2), leaf first; every failure is an
  /// `MdocError` with `code`, its reason opening with `label` (issuerAuth §9.1.2.4, readerAuth
  /// §9.1.4).
  func x5chainCertificates(
    failing code: MdocErrorCode, label: String, missingNote: String = "",
    certificateLabel: String
  ) throws(MdocError) -> [Certificate] {
    let ders: [[UInt8]]
    do {
      ders = try headers.x5chain
    } catch {
      throw MdocError(code, "\(label) x5chain: \(error.reason)", underlying: error)
    }
    guard !ders.isEmpty else { throw MdocError(code, "\(label) has no x5chain\(missingNote)") }
    var chain: [Certificate] = []
    chain.reserveCapacity(ders.count)
    for der in ders {
      do {
        // Parsed once per process for a certificate seen before (CertificateMemo, bounded).
        chain.append(try CertificateMemo.shared.certificate(derEncoded: der))
      } catch {
        throw MdocError(code, "\(certificateLabel): \(error.reason)", underlying: error)
      }
    }
    return chain
  }
}
