import DCCBOR
import DCCOSE
import DCCrypto
import DCTestSupport
import DCWalletTestSupport
import Foundation
import Testing

@testable import DCMdoc

/// `IssuerSigned(bytes:)`: issued mdocs of every shape and odd but valid encodings are read with
/// every IssuerSignedItemBytes and the MSO kept exactly as received (the digests and issuerAuth
/// cover those bytes, ISO 18013-5 §9.1.2.4, §9.1.2.5); malformed ones are refused with an
/// `MdocError`, never a trap.
@Suite("IssuerSigned reading")
struct IssuerSignedReadingTests {
  static let treeEncoder = CBOREncoder(mapOrder: .preserved)

  /// Reads `bytes` and checks what was kept: every item's bytes and the MSO's appear in the
  /// input with the values decoded from them, the MSO is issuerAuth's payload, and (for an mdoc
  /// as issued, `digestsMatch`) the MSO's digests cover the items' kept bytes.
  @discardableResult
  static func read(
    _ bytes: [UInt8], digestsMatch: Bool = true, _ note: @autoclosure () -> String = ""
  ) throws -> IssuerSigned {
    let mdoc = try IssuerSigned(bytes: bytes)
    let algorithm = try mdoc.mso.digest
    for (nameSpace, items) in mdoc.nameSpaces {
      for item in items {
        #expect(bytes.firstRange(of: item.encoded.bytes) != nil, "\(note())")
        #expect(item.encoded.value == (try CBOR.decode(item.encoded.bytes)), "\(note())")
        if digestsMatch {
          #expect(
            mdoc.mso.valueDigests[nameSpace]?[item.digestID] == item.digest(algorithm),
            "\(note()) \(nameSpace)/\(item.elementIdentifier)")
        }
      }
    }
    #expect(bytes.firstRange(of: mdoc.mso.encoded.bytes) != nil, "\(note())")
    #expect(mdoc.mso.encoded.value == (try CBOR.decode(mdoc.mso.encoded.bytes)), "\(note())")
    let payload = try #require(mdoc.issuerAuth.payload)
    #expect(try CBOR.decode(payload) == mdoc.mso.encoded.tag24, "\(note())")
    return mdoc
  }

  static func validity(_ pki: TestPKI) -> ValidityInfo {
    ValidityInfo(
      signed: pki.clock, validFrom: pki.clock.addingTimeInterval(-3600),
      validUntil: pki.clock.addingTimeInterval(86_400),
      expectedUpdate: pki.clock.addingTimeInterval(3600))
  }

  /// Issued mdocs of many shapes.
  static func issued() throws -> [IssuerSigned] {
    let pki = try TestPKI()
    let device = try ECPrivateKey(curve: .p256).publicKey
    let issuer = MdocIssuer(signer: pki.dsKey, certificateChain: [pki.documentSigner])
    let mdl = "org.iso.18013.5.1"
    let elements: [(identifier: String, value: CBOR)] = [
      ("family_name", "Mustermann"), ("given_name", "Érika 名前"),
      ("birth_date", .fullDate(try FullDate("1971-09-01"))),
      ("issue_date", .dateTime(pki.clock)), ("age_over_18", true), ("age_over_65", false),
      ("portrait", .byteString([UInt8](repeating: 7, count: 3000))),
      ("height", 175), ("offset", -42), ("big_negative", .negative(UInt64.max)),
      ("weight", .double(70.5)), ("ratio", .float(0.25)), ("half", .half(0x3c00)),
      ("nothing", .null), ("undefined", .undefined), ("simple", .simple(99)),
      (
        "driving_privileges",
        [["vehicle_category_code": "A", "issue_date": .fullDate(try FullDate("2018-08-09"))]]
      ),
      ("nested", ["a": [1, [2, ["b": .byteString([1, 2])]]], .unsigned(7): "int key"]),
      ("tagged", .tagged(32, "https://example.com")), ("empty", ""),
    ]
    let many = (0..<40).map { (identifier: "element_\($0)", value: CBOR($0 * 1000)) }
    var out: [IssuerSigned] = []
    out.append(
      try issuer.issue(
        docType: "org.iso.18013.5.1.mDL", nameSpaces: [(mdl, elements)], deviceKey: device,
        validity: validity(pki)))
    out.append(
      try issuer.issue(
        docType: "org.iso.18013.5.1.mDL",
        nameSpaces: [
          (mdl, Array(elements.prefix(3))), ("org.iso.18013.5.1.aamva", [("DHS_compliance", "F")]),
          ("org.example.many", many), ("é.namespace", [("x", 1)]),
        ],
        deviceKey: device,
        validity: ValidityInfo(
          signed: pki.clock, validFrom: pki.clock, validUntil: pki.clock.addingTimeInterval(1)),
        digestAlgorithm: .sha384, decoyDigests: 5,
        keyAuthorizations: KeyAuthorizations(
          nameSpaces: [mdl], dataElements: ["org.example.many": ["element_1", "element_2"]]),
        status: ["status_list": ["idx": 7, "uri": "https://example.com/status"]]))
    out.append(
      try issuer.issue(
        docType: "eu.europa.ec.eudi.pid.1",
        nameSpaces: [("eu.europa.ec.eudi.pid.1", [("family_name", "X")])], deviceKey: device,
        validity: validity(pki), digestAlgorithm: .sha512,
        keyAuthorizations: KeyAuthorizations(nameSpaces: ["a", "b"])))
    return out
  }

  /// `issuerAuth` before `nameSpaces`, and `issuerAuth` alone.
  static func reordered(_ mdoc: IssuerSigned) throws -> [[UInt8]] {
    let map = try #require(mdoc.cbor.map)
    let auth = try #require(map["issuerAuth"])
    let spaces = try #require(map["nameSpaces"])
    return [
      treeEncoder.encode(.map(["issuerAuth": auth, "nameSpaces": spaces])),
      treeEncoder.encode(.map(["issuerAuth": auth])),
    ]
  }

  /// The Annex D IssuerSigned, as encoded in the vector's DeviceResponse.
  static func annexD() throws -> [UInt8] {
    let response = try CBOR.decode(try AnnexD().hex("device_response"))
    let document = try #require(response.map?["documents"]?.array?.first?.map)
    return treeEncoder.encode(try #require(document["issuerSigned"]))
  }

  /// Mdocs as issued, reordered, and the Annex D one.
  static func plain() throws -> [[UInt8]] {
    var out: [[UInt8]] = [try annexD()]
    for mdoc in try issued() {
      out.append(mdoc.bytes)
      out += try reordered(mdoc)
    }
    return out
  }

  @Test(
    "Issued mdocs of every shape, issuerAuth first or alone, and Annex D: read with their bytes kept, re-encoding to them"
  )
  func plainShapes() throws {
    for (index, bytes) in try Self.plain().enumerated() {
      #expect(try Self.read(bytes, "input \(index)").bytes == bytes, "input \(index)")
    }
    // Values as issued.
    let issued = try Self.issued()[0]
    let read = try IssuerSigned(bytes: issued.bytes)
    #expect(read.nameSpaces.map(\.nameSpace) == issued.nameSpaces.map(\.nameSpace))
    #expect(
      read.nameSpaces[0].items.map(\.encoded.bytes)
        == issued.nameSpaces[0].items.map(\.encoded.bytes))
    #expect(
      read.nameSpaces[0].items.map(\.elementIdentifier)
        == issued.nameSpaces[0].items.map(\.elementIdentifier))
    #expect(read.mso == issued.mso)
    #expect(read.mso.validityInfo == issued.mso.validityInfo)
    #expect(read.mso.deviceKey == issued.mso.deviceKey)
    // A tagged COSE_Sign1 (RFC 9052 §2, tag 18) is read.
    let tagged = Self.treeEncoder.encode(
      Self.map([
        ("nameSpaces", try #require(issued.cbor.map?["nameSpaces"])),
        ("issuerAuth", .tagged(18, issued.issuerAuth.cbor())),
      ]))
    #expect(try Self.read(tagged).mso == issued.mso)
  }

  /// Writes every head one size larger than the shortest (RFC 8949 §3: valid, not preferred),
  /// inside embedded (tag 24) items too; the COSE_Sign1 payload is such an item in a bstr.
  static func longHeads(_ item: CBOR) -> [UInt8] {
    func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
      let (info, width): (UInt8, Int) =
        argument < 0x100
        ? (24, 1) : argument < 0x1_0000 ? (26, 4) : (27, 8)
      var out = [major << 5 | info]
      for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
        out.append(UInt8(truncatingIfNeeded: argument >> UInt64(shift)))
      }
      return out
    }
    switch item {
    case .unsigned(let n): return head(0, n)
    case .negative(let n): return head(1, n)
    case .byteString(let bytes):
      // The COSE_Sign1 payload: `MobileSecurityObjectBytes` in a bstr.
      if let inner = try? CBOR.decode(bytes), case .tagged(24, .byteString) = inner {
        let content = longHeads(inner)
        return head(2, UInt64(content.count)) + content
      }
      return head(2, UInt64(bytes.count)) + bytes
    case .textString(let text): return head(3, UInt64(text.utf8.count)) + Array(text.utf8)
    case .array(let items): return head(4, UInt64(items.count)) + items.flatMap(longHeads)
    case .map(let map):
      return head(5, UInt64(map.count))
        + zip(map.keys, map.values).flatMap { longHeads($0) + longHeads($1) }
    case .tagged(24, .byteString(let bytes)):
      guard let inner = try? CBOR.decode(bytes) else {
        return head(6, 24) + longHeads(.byteString(bytes))
      }
      let content = longHeads(inner)
      return head(6, 24) + head(2, UInt64(content.count)) + content
    case .tagged(let tag, let content): return head(6, tag) + longHeads(content)
    default: return treeEncoder.encode(item)
    }
  }

  @Test(
    "Non-shortest heads everywhere (items and MSO included): read with those bytes kept"
  )
  func longHeadEncodings() throws {
    for bytes in try Self.plain() {
      let long = Self.longHeads(try CBOR.decode(bytes))
      #expect(long.count > bytes.count)
      let original = try IssuerSigned(bytes: bytes)
      // The items and the MSO are rewritten with long heads: their digests and signature differ.
      let read = try Self.read(long, digestsMatch: false)
      #expect(read.nameSpaces.map(\.nameSpace) == original.nameSpaces.map(\.nameSpace))
      #expect(
        read.nameSpaces.flatMap(\.items).map(\.elementValue)
          == original.nameSpaces.flatMap(\.items).map(\.elementValue))
      #expect(read.mso.valueDigests == original.mso.valueDigests)
      #expect(read.mso.docType == original.mso.docType)
    }
  }

  /// The encoding of a map with the given pairs, in order, keys text.
  static func map(_ pairs: [(String, CBOR)]) -> CBOR {
    .map(CBORMap(uncheckedKeys: pairs.map { .textString($0.0) }, values: pairs.map(\.1)))
  }

  /// Edits of the plain shape: valid but unusual ones (`accepted`) and malformed ones.
  static let accepted: Set<String> = [
    "indefinite top map", "indefinite namespace array", "unknown top key", "integer top key",
    "item unknown key", "MSO unknown key", "empty nameSpaces map", "MSO empty valueDigests",
    "MSO empty digest namespace",
  ]

  /// Edits of an issued mdoc, by name.
  static func edited() throws -> [(String, [UInt8])] {
    let mdoc = try issued()[1]
    let bytes = mdoc.bytes
    let top = try #require(mdoc.cbor.map)
    let auth = try #require(top["issuerAuth"])
    let spaces = try #require(top["nameSpaces"]?.map)
    let item = try #require(mdoc.nameSpaces.first?.items.first)
    let itemMap = try #require(item.encoded.value.map)
    let msoMap = try #require(mdoc.mso.encoded.value.map)
    let authMembers = try #require(auth.array)

    func issuerSigned(_ pairs: [(String, CBOR)]) -> [UInt8] { treeEncoder.encode(map(pairs)) }
    func withItem(_ item: CBOR) -> [UInt8] {
      var inner = spaces
      inner[key: inner.keys[0]] = .array([.tagged(24, .byteString(treeEncoder.encode(item)))])
      return issuerSigned([("nameSpaces", .map(inner)), ("issuerAuth", auth)])
    }
    func editItem(_ key: String, _ value: CBOR?) -> [UInt8] {
      var edited = itemMap
      edited[key] = value
      return withItem(.map(edited))
    }
    func withPayload(_ payload: CBOR) -> [UInt8] {
      var members = authMembers
      members[2] = payload
      return issuerSigned([("nameSpaces", .map(spaces)), ("issuerAuth", .array(members))])
    }
    func withMSO(_ mso: CBOR) -> [UInt8] {
      withPayload(
        .byteString(treeEncoder.encode(.tagged(24, .byteString(treeEncoder.encode(mso))))))
    }
    func editMSO(_ key: String, _ value: CBOR?) -> [UInt8] {
      var edited = msoMap
      edited[key] = value
      return withMSO(.map(edited))
    }
    let digests = try #require(msoMap["valueDigests"]?.map)
    let firstDigests = try #require(digests.values.first?.map)
    var indefiniteTop = bytes
    indefiniteTop[0] = 0xbf
    indefiniteTop.append(0xff)
    let nameSpacesText = Array("nameSpaces".utf8)
    // Maps hand-encoded pair by pair: the tree cannot hold a repeated key.
    func mapBytes(_ keys: [CBOR], _ values: [CBOR], replacing: CBOR? = nil, with raw: [UInt8] = [])
      -> [UInt8]
    {
      var out: [UInt8] = [0xa0 | UInt8(keys.count)]
      for (key, value) in zip(keys, values) {
        out += treeEncoder.encode(key)
        out += key == replacing ? raw : treeEncoder.encode(value)
      }
      return out
    }
    var repeatedKey: [UInt8] = [0xa3] + bytes.dropFirst()
    repeatedKey += [0x6a] + nameSpacesText + treeEncoder.encode(.map(spaces))
    var repeatedSpaceBytes: [UInt8] = [0xa2, 0x6a] + nameSpacesText
    repeatedSpaceBytes += mapBytes(
      spaces.keys + [spaces.keys[0]], spaces.values + [spaces.values[0]])
    repeatedSpaceBytes += [0x6a] + Array("issuerAuth".utf8) + treeEncoder.encode(auth)
    func msoWithDigests(_ encodedDigests: [UInt8]) -> [UInt8] {
      let mso = mapBytes(
        msoMap.keys, msoMap.values, replacing: "valueDigests", with: encodedDigests)
      return withPayload(.byteString(treeEncoder.encode(.tagged(24, .byteString(mso)))))
    }
    // One digest ID twice in a namespace, one valueDigests namespace twice.
    let repeatedID = mapBytes(
      firstDigests.keys + [firstDigests.keys[0]], firstDigests.values + [firstDigests.values[0]])
    let repeatedIDBytes = msoWithDigests(
      mapBytes(digests.keys, digests.values, replacing: digests.keys[0], with: repeatedID))
    let repeatedDigestSpace = msoWithDigests(
      mapBytes(digests.keys + [digests.keys[0]], digests.values + [digests.values[0]]))
    // A key repeated in an item and in the MSO (the decoder refuses it, RFC 8949 §5.6).
    let itemKeyTwice =
      mapBytes(itemMap.keys + [itemMap.keys[0]], itemMap.values + [itemMap.values[0]])
    var itemSpaces = spaces
    itemSpaces[key: itemSpaces.keys[0]] = .array([.tagged(24, .byteString(itemKeyTwice))])
    let msoKeyTwice = mapBytes(msoMap.keys + [msoMap.keys[0]], msoMap.values + [msoMap.values[0]])
    return [
      ("indefinite top map", indefiniteTop),
      ("item key twice", issuerSigned([("nameSpaces", .map(itemSpaces)), ("issuerAuth", auth)])),
      (
        "MSO key twice",
        withPayload(.byteString(treeEncoder.encode(.tagged(24, .byteString(msoKeyTwice)))))
      ),
      (
        "indefinite namespace array",
        {
          var out = [UInt8](issuerSigned([("issuerAuth", auth)]))
          out[0] = 0xa2
          let array = try? CBOR.decode(treeEncoder.encode(spaces.values[0]))
          var items: [UInt8] = [0x9f]
          for element in array?.array ?? [] { items += treeEncoder.encode(element) }
          items.append(0xff)
          return out + [0x6a] + nameSpacesText + [0xa1] + treeEncoder.encode(spaces.keys[0]) + items
        }()
      ),
      ("top key twice", repeatedKey),
      ("namespace twice", repeatedSpaceBytes),
      ("digest ID twice", repeatedIDBytes),
      ("valueDigests namespace twice", repeatedDigestSpace),
      (
        "unknown top key",
        issuerSigned([("nameSpaces", .map(spaces)), ("issuerAuth", auth), ("x", 1)])
      ),
      (
        "integer top key",
        treeEncoder.encode(
          .map(
            CBORMap(
              uncheckedKeys: ["nameSpaces", "issuerAuth", 1], values: [.map(spaces), auth, 1])))
      ),
      ("no issuerAuth", issuerSigned([("nameSpaces", .map(spaces))])),
      ("empty map", [0xa0]),
      ("empty nameSpaces map", issuerSigned([("nameSpaces", .map([:])), ("issuerAuth", auth)])),
      (
        "empty namespace array",
        issuerSigned([("nameSpaces", map([("ns", [])])), ("issuerAuth", auth)])
      ),
      ("nameSpaces an array", issuerSigned([("nameSpaces", [1]), ("issuerAuth", auth)])),
      (
        "item not tag 24",
        issuerSigned([
          ("nameSpaces", map([("ns", [.byteString(item.encoded.bytes)])])), ("issuerAuth", auth),
        ])
      ),
      (
        "item tag 24 of a text",
        issuerSigned([("nameSpaces", map([("ns", [.tagged(24, "x")])])), ("issuerAuth", auth)])
      ),
      (
        "item with trailing bytes",
        issuerSigned([
          ("nameSpaces", map([("ns", [.tagged(24, .byteString(item.encoded.bytes + [0]))])])),
          ("issuerAuth", auth),
        ])
      ),
      ("item unknown key", editItem("extra", 1)),
      ("item missing random", editItem("random", nil)),
      ("item digestID text", editItem("digestID", "1")),
      ("item digestID negative", editItem("digestID", -1)),
      ("item random text", editItem("random", "salt")),
      ("item identifier bytes", editItem("elementIdentifier", .byteString([0x61]))),
      ("item missing value", editItem("elementValue", nil)),
      ("item a list", withItem([1, 2, 3, 4])),
      (
        "issuerAuth a map", issuerSigned([("nameSpaces", .map(spaces)), ("issuerAuth", .map([:]))])
      ),
      ("payload detached", withPayload(.null)),
      ("payload not tag 24", withPayload(.byteString(mdoc.mso.encoded.bytes))),
      ("payload trailing", withPayload(.byteString(mdoc.mso.encoded.tag24.encoded() + [0]))),
      (
        "MSO trailing",
        withPayload(
          .byteString(treeEncoder.encode(.tagged(24, .byteString(mdoc.mso.encoded.bytes + [0])))))
      ),
      ("MSO a list", withMSO([1])),
      ("MSO unknown key", editMSO("extra", 1)),
      ("MSO version integer", editMSO("version", 1)),
      ("MSO missing docType", editMSO("docType", nil)),
      ("MSO missing validityInfo", editMSO("validityInfo", nil)),
      (
        "MSO validityInfo dates untagged",
        editMSO(
          "validityInfo",
          map([
            ("signed", "2024-01-01T00:00:00Z"), ("validFrom", "2024-01-01T00:00:00Z"),
            ("validUntil", "2025-01-01T00:00:00Z"),
          ]))
      ),
      ("MSO deviceKeyInfo without deviceKey", editMSO("deviceKeyInfo", map([("keyInfo", [:])]))),
      ("MSO deviceKey not a key", editMSO("deviceKeyInfo", map([("deviceKey", 1)]))),
      (
        "MSO keyAuthorizations overlap",
        editMSO(
          "deviceKeyInfo",
          {
            var info = msoMap["deviceKeyInfo"]?.map ?? CBORMap()
            info["keyAuthorizations"] = map([
              ("nameSpaces", ["a"]), ("dataElements", map([("a", ["x"])])),
            ])
            return .map(info)
          }())
      ),
      ("MSO empty valueDigests", editMSO("valueDigests", .map([:]))),
      ("MSO empty digest namespace", editMSO("valueDigests", map([("ns", .map([:]))]))),
      ("MSO digest ID text", editMSO("valueDigests", map([("ns", .map(["1": .byteString([1])]))]))),
      ("MSO digest not bytes", editMSO("valueDigests", map([("ns", .map([1: "x"]))]))),
      ("trailing byte", bytes + [0]),
      ("truncated by one", Array(bytes.dropLast())),
    ]
  }

  @Test(
    "Indefinite lengths and unknown keys are read; repeated keys, wrong types, empty namespaces, trailing bytes are refused"
  )
  func refusals() throws {
    for (name, bytes) in try Self.edited() {
      if Self.accepted.contains(name) {
        #expect(throws: Never.self, "\(name)") {
          try Self.read(bytes, digestsMatch: false, name)
        }
      } else {
        #expect(throws: MdocError.self, "\(name)") { try IssuerSigned(bytes: bytes) }
      }
    }
  }

  @Test("Every truncation of an issued mdoc is refused")
  func truncations() throws {
    let bytes = try Self.issued()[2].bytes
    for length in 0..<bytes.count {
      #expect(throws: MdocError.self, "prefix \(length)") {
        try IssuerSigned(bytes: Array(bytes[..<length]))
      }
    }
  }
}
