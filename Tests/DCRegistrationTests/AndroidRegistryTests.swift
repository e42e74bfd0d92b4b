import DCAPI
import DCCBOR
import DCJSON
import DCRegistration
import DCTestSupport
import Testing

/// Layout checks follow wire-formats.md, "Android Credential Manager registry data".
@Suite("Android registry: multipaz database")
struct MultipazRegistryTests {
  func decode(_ bytes: [UInt8]) throws -> CBOR {
    let (value, deterministic) = try CBORDecoder().decodeReportingDeterminism(bytes)
    #expect(deterministic, "the database must use RFC 8949 §4.2.1 deterministic encoding")
    return value
  }

  @Test("Every field of the database follows the multipaz layout")
  func layout() throws {
    let descriptions = [
      try Fixtures.mdl(
        android: AndroidRegistrationOptions(
          issuerAuthorityKeyIdentifiers: [Fixtures.issuerAKI],
          supportedAuthorityKeyIdentifiers: [Fixtures.readerAKI])),
      Fixtures.pid(),
    ]
    let database = try decode(try AndroidRegistry.data(for: descriptions, matcher: .multipaz))
    #expect(Set(database.map?.keys.compactMap(\.text) ?? []) == ["protocols", "credentials"])
    #expect(
      database["protocols"]?.array?.compactMap(\.text)
        == [
          "openid4vp", "openid4vp-v1-unsigned", "openid4vp-v1-signed", "openid4vp-v1-multisigned",
          "org-iso-mdoc",
        ])
    let credentials = try #require(database["credentials"]?.array)
    #expect(credentials.count == 2)

    let mdl = credentials[0]
    #expect(Set(mdl.map?.keys.compactMap(\.text) ?? []) == ["title", "subtitle", "bitmap", "mdoc"])
    #expect(mdl["title"]?.text == "Driving Licence")
    #expect(mdl["subtitle"]?.text == "Erika Mustermann")
    #expect(mdl["bitmap"]?.bytes == Fixtures.pngIcon)
    let mdoc = try #require(mdl["mdoc"])
    #expect(
      Set(mdoc.map?.keys.compactMap(\.text) ?? [])
        == ["documentId", "docType", "issuerIdentifiers", "readerIdentifiers", "namespaces"])
    #expect(mdoc["documentId"]?.text == "mdl-1")
    #expect(mdoc["docType"]?.text == "org.iso.18013.5.1.mDL")
    #expect(mdoc["issuerIdentifiers"]?.array?.compactMap(\.bytes) == [Fixtures.issuerAKI.bytes])
    #expect(mdoc["readerIdentifiers"]?.array?.compactMap(\.bytes) == [Fixtures.readerAKI.bytes])
    let elements = try #require(mdoc["namespaces"]?["org.iso.18013.5.1"])
    #expect(elements.map?.count == 4)
    #expect(
      elements["family_name"]?.array?.compactMap(\.text) == [
        "Family name", "Mustermann", "Mustermann",
      ])
    #expect(
      elements["birth_date"]?.array?.compactMap(\.text) == [
        "Date of birth", "1971-09-01", "1971-09-01",
      ])
    #expect(elements["age_over_18"]?.array?.compactMap(\.text) == ["Over 18", "Yes", "true"])
    // A portrait cannot be compared: it registers as null, so its match value is empty.
    #expect(elements["portrait"]?.array?.compactMap(\.text) == ["Portrait", "Photo", ""])

    let pid = credentials[1]
    #expect(
      Set(pid.map?.keys.compactMap(\.text) ?? []) == ["title", "subtitle", "bitmap", "sdjwt"])
    #expect(pid["bitmap"]?.bytes == Fixtures.jpegIcon)
    let sdjwt = try #require(pid["sdjwt"])
    #expect(Set(sdjwt.map?.keys.compactMap(\.text) ?? []) == ["documentId", "vct", "claims"])
    #expect(sdjwt["documentId"]?.text == "pid-1")
    #expect(sdjwt["vct"]?.text == "urn:eudi:pid:1")
    let claims = try #require(sdjwt["claims"])
    #expect(
      Set(claims.map?.keys.compactMap(\.text) ?? [])
        == [
          "given_name", "address.locality", "address.postal_code", "age_in_years", "nationalities",
        ])
    #expect(claims["given_name"]?.array?.compactMap(\.text) == ["Given name", "Erika", "Erika"])
    #expect(claims["address.locality"]?.array?.compactMap(\.text) == ["City", "Berlin", "Berlin"])
    // Without a display name the last path component is shown.
    #expect(
      claims["address.postal_code"]?.array?.compactMap(\.text) == ["postal_code", "10115", "10115"])
    #expect(claims["age_in_years"]?.array?.compactMap(\.text) == ["age_in_years", "54", "54"])
    #expect(claims["nationalities"]?.array?.compactMap(\.text) == ["nationalities", "", ""])
  }

  static let golden = hexBytes(
    """
    a2 69 70 72 6f 74 6f 63 6f 6c 73 85 69 6f 70 65 6e 69 64 34 76 70 75 6f 70 65 6e 69 64 34 76 70
    2d 76 31 2d 75 6e 73 69 67 6e 65 64 73 6f 70 65 6e 69 64 34 76 70 2d 76 31 2d 73 69 67 6e 65 64
    78 18 6f 70 65 6e 69 64 34 76 70 2d 76 31 2d 6d 75 6c 74 69 73 69 67 6e 65 64 6c 6f 72 67 2d 69
    73 6f 2d 6d 64 6f 63 6b 63 72 65 64 65 6e 74 69 61 6c 73 82 a4 64 6d 64 6f 63 a4 67 64 6f 63 54
    79 70 65 75 6f 72 67 2e 69 73 6f 2e 31 38 30 31 33 2e 35 2e 31 2e 6d 44 4c 6a 64 6f 63 75 6d 65
    6e 74 49 64 61 6d 6a 6e 61 6d 65 73 70 61 63 65 73 a1 62 6e 73 a1 61 65 83 61 45 61 76 61 76 71
    69 73 73 75 65 72 49 64 65 6e 74 69 66 69 65 72 73 81 41 11 65 74 69 74 6c 65 61 54 66 62 69 74
    6d 61 70 42 01 02 68 73 75 62 74 69 74 6c 65 61 53 a4 65 73 64 6a 77 74 a3 63 76 63 74 61 74 66
    63 6c 61 69 6d 73 a1 63 61 2e 62 83 61 62 61 37 61 37 6a 64 6f 63 75 6d 65 6e 74 49 64 61 73 65
    74 69 74 6c 65 61 55 66 62 69 74 6d 61 70 41 03 68 73 75 62 74 69 74 6c 65 60
    """)

  @Test("Golden bytes for a fixed input, and the same bytes decoded field by field")
  func goldenBytes() throws {
    let bytes = try AndroidRegistry.data(for: Fixtures.goldenInput(), matcher: .multipaz)
    #expect(hexString(bytes) == hexString(Self.golden))

    // The golden decoded independently of the encoder's own structure.
    let database = try decode(Self.golden)
    #expect(database["protocols"]?.array?.count == 5)
    let credentials = try #require(database["credentials"]?.array)
    #expect(credentials.count == 2)
    #expect(credentials[0]["title"]?.text == "T")
    #expect(credentials[0]["subtitle"]?.text == "S")
    #expect(credentials[0]["bitmap"]?.bytes == [1, 2])
    #expect(credentials[0]["mdoc"]?["documentId"]?.text == "m")
    #expect(credentials[0]["mdoc"]?["docType"]?.text == "org.iso.18013.5.1.mDL")
    #expect(credentials[0]["mdoc"]?["issuerIdentifiers"] == .array([.byteString([0x11])]))
    #expect(credentials[0]["mdoc"]?["readerIdentifiers"] == nil)
    #expect(
      credentials[0]["mdoc"]?["namespaces"] == .map(["ns": .map(["e": .array(["E", "v", "v"])])]))
    #expect(credentials[1]["title"]?.text == "U")
    #expect(credentials[1]["subtitle"]?.text == "")
    #expect(credentials[1]["bitmap"]?.bytes == [3])
    #expect(credentials[1]["sdjwt"]?["documentId"]?.text == "s")
    #expect(credentials[1]["sdjwt"]?["vct"]?.text == "t")
    #expect(credentials[1]["sdjwt"]?["claims"] == .map(["a.b": .array(["b", "7", "7"])]))
  }

  @Test(
    "Match values are empty from 128 characters (UTF-16 code units) on; display values are kept",
    arguments: [
      (String(repeating: "a", count: 127), true), (String(repeating: "a", count: 128), false),
      (String(repeating: "a", count: 300), false), (String(repeating: "😀", count: 63), true),
      (String(repeating: "😀", count: 64), false), (String(repeating: "é", count: 127), true),
    ])
  func matchValueLength(value: String, kept: Bool) throws {
    let description = CredentialDescription(
      id: "x", display: CredentialDisplayInfo(title: "X"),
      credential: .mdoc(docType: "d", nameSpaces: ["ns": ["e": RegisteredClaim(.string(value))]]))
    let database = try decode(try AndroidRegistry.data(for: [description], matcher: .multipaz))
    let entry = database["credentials"]?.array?.first?["mdoc"]?["namespaces"]?["ns"]?["e"]?.array?
      .compactMap(\.text)
    #expect(entry == ["e", value, kept ? value : ""])
  }

  @Test("No icon writes an empty bitmap")
  func noIcon() throws {
    let description = CredentialDescription(
      id: "x", display: CredentialDisplayInfo(title: "X"), credential: .sdJWT(vct: "v", claims: [:])
    )
    let database = try decode(try AndroidRegistry.data(for: [description], matcher: .multipaz))
    #expect(database["credentials"]?.array?.first?["bitmap"] == .byteString([]))
    #expect(database["credentials"]?.array?.first?["sdjwt"]?["claims"] == .map([:]))
  }

  @Test("Protocols are written once each, in the matcher's order")
  func protocolOrder() throws {
    let bytes = try AndroidRegistry.data(
      for: [], matcher: .multipaz, protocols: [.orgIsoMdoc, .openID4VPUnsigned, .orgIsoMdoc])
    let database = try decode(bytes)
    #expect(
      database["protocols"]?.array?.compactMap(\.text) == ["openid4vp-v1-unsigned", "org-iso-mdoc"])
    #expect(database["credentials"] == .array([]))
  }

  @Test("A claim path component containing '.' is refused: 'a.b' would read as two components")
  func dottedPath() {
    let description = CredentialDescription(
      id: "x", display: CredentialDisplayInfo(title: "X"),
      credential: .sdJWT(vct: "v", claims: [["a.b"]: RegisteredClaim("1")]))
    #expect(
      registrationErrorCode { _ = try AndroidRegistry.data(for: [description], matcher: .multipaz) }
        == .invalidClaimPath)
  }
}

@Suite("Android registry: CMWallet / Ubique blob")
struct CMWalletRegistryTests {
  /// The blob split by its header: offset, icon region, JSON.
  func split(_ blob: [UInt8]) throws -> (offset: Int, icons: ArraySlice<UInt8>, json: JSONValue) {
    try #require(blob.count >= 4)
    let offset = Int(blob[0]) | Int(blob[1]) << 8 | Int(blob[2]) << 16 | Int(blob[3]) << 24
    try #require(offset >= 4 && offset <= blob.count)
    return (offset, blob[4..<offset], try JSONValue(parsing: blob[offset...]))
  }

  static let goldenJSON =
    #"{"credentials":{"mso_mdoc":{"org.iso.18013.5.1.mDL":[{"id":"m","title":"T","subtitle":"S","#
    + #""icon":{"start":4,"length":2},"paths":{"ns":{"e":{"value":"v","display":"E"}}}}]},"#
    + #""dc+sd-jwt":{"t":[{"id":"s","title":"U","subtitle":"","icon":{"start":6,"length":1},"#
    + #""paths":{"a":{"b":{"value":7,"display":"b"}}}}]}}}"#

  @Test(
    "Golden bytes: int32 LE offset 7, three icon bytes, then the JSON",
    arguments: [AndroidMatcher.cmwallet, .ubique])
  func goldenBytes(matcher: AndroidMatcher) throws {
    let blob = try AndroidRegistry.data(for: Fixtures.goldenInput(), matcher: matcher)
    #expect(hexString(blob.prefix(7)) == "07000000010203")
    #expect(String(decoding: blob.dropFirst(7), as: UTF8.self) == Self.goldenJSON)
  }

  @Test("Offsets and icon slices point at each credential's icon")
  func iconSlices() throws {
    let noIcon = CredentialDescription(
      id: "plain", display: CredentialDisplayInfo(title: "Plain"),
      credential: .mdoc(docType: "org.example.1", nameSpaces: [:]))
    let blob = try AndroidRegistry.data(
      for: [try Fixtures.mdl(), noIcon, Fixtures.pid()], matcher: .cmwallet)
    let (offset, icons, json) = try split(blob)
    #expect(offset == 4 + Fixtures.pngIcon.count + Fixtures.jpegIcon.count)
    #expect(Array(icons) == Fixtures.pngIcon + Fixtures.jpegIcon)

    func slice(_ entry: JSONValue?) throws -> [UInt8] {
      let start = try #require(entry?["icon"]?["start"]?.int)
      let length = try #require(entry?["icon"]?["length"]?.int)
      try #require(start >= 4 && start + length <= offset)
      return Array(blob[start..<start + length])
    }
    let mdl = json["credentials"]?["mso_mdoc"]?["org.iso.18013.5.1.mDL"]?[0]
    let pid = json["credentials"]?["dc+sd-jwt"]?["urn:eudi:pid:1"]?[0]
    #expect(try slice(mdl) == Fixtures.pngIcon)
    #expect(try slice(pid) == Fixtures.jpegIcon)
    #expect(json["credentials"]?["mso_mdoc"]?["org.example.1"]?[0]?["icon"] == .null)
  }

  @Test(
    "Entries carry id, title, subtitle, icon and paths; values that cannot be compared have no value"
  )
  func entries() throws {
    let (_, _, json) = try split(
      try AndroidRegistry.data(
        for: [
          try Fixtures.mdl(
            android: AndroidRegistrationOptions(issuerAuthorityKeyIdentifiers: [Fixtures.issuerAKI])
          ), Fixtures.pid(),
        ],
        matcher: .ubique))
    let mdl = try #require(json["credentials"]?["mso_mdoc"]?["org.iso.18013.5.1.mDL"]?[0])
    #expect(mdl.keys == ["id", "title", "subtitle", "icon", "paths"])
    #expect(mdl["id"] == "mdl-1")
    #expect(mdl["title"] == "Driving Licence")
    #expect(mdl["subtitle"] == "Erika Mustermann")
    #expect(
      mdl["paths"]
        == [
          "org.iso.18013.5.1": [
            "age_over_18": ["value": true, "display": "Over 18"],
            "birth_date": ["value": "1971-09-01", "display": "Date of birth"],
            "family_name": ["value": "Mustermann", "display": "Family name"],
            "portrait": ["display": "Portrait"],
          ]
        ])
    // Issuer identifiers are for multipaz only; these matchers ignore issuer constraints.
    #expect(!String(decoding: json.serializedBytes(), as: UTF8.self).contains("ERERER"))
    let pid = try #require(json["credentials"]?["dc+sd-jwt"]?["urn:eudi:pid:1"]?[0])
    #expect(
      pid["paths"]
        == [
          "address": [
            "locality": ["value": "Berlin", "display": "City"],
            "postal_code": ["value": "10115", "display": "postal_code"],
          ],
          "age_in_years": ["value": 54, "display": "age_in_years"],
          "given_name": ["value": "Erika", "display": "Given name"],
          "nationalities": ["display": "nationalities"],
        ])
  }

  @Test("Several credentials of one type keep their order; types are sorted")
  func grouping() throws {
    let (_, _, json) = try split(
      try AndroidRegistry.data(
        for: [
          Fixtures.pid(id: "b", vct: "z"), Fixtures.pid(id: "a", vct: "z"),
          Fixtures.pid(id: "c", vct: "y"),
        ],
        matcher: .cmwallet))
    let sdJWTs = try #require(json["credentials"]?["dc+sd-jwt"])
    #expect(sdJWTs.keys == ["y", "z"])
    #expect(sdJWTs["z"]?.array?.compactMap { $0["id"]?.string } == ["b", "a"])
    #expect(json["credentials"]?["mso_mdoc"] == .object([]))
  }

  @Test("A claim path that is also another's parent is refused")
  func conflictingPaths() {
    let description = CredentialDescription(
      id: "x", display: CredentialDisplayInfo(title: "X"),
      credential: .sdJWT(
        vct: "v",
        claims: [["address"]: RegisteredClaim(.null), ["address", "city"]: RegisteredClaim("B")]))
    #expect(
      registrationErrorCode { _ = try AndroidRegistry.data(for: [description], matcher: .cmwallet) }
        == .invalidClaimPath)
  }
}

@Suite("Android registry: protocols, gating, determinism")
struct AndroidRegistryRulesTests {
  @Test(
    "A protocol the matcher cannot answer is an error",
    arguments: [
      (AndroidMatcher.cmwallet, DigitalCredentialProtocol.orgIsoMdoc), (.ubique, .orgIsoMdoc),
      (.cmwallet, .openID4VPSigned), (.ubique, .openID4VPUnsigned),
      (.ubique, .openID4VPMultisigned),
    ])
  func unsupportedProtocol(matcher: AndroidMatcher, protocolID: DigitalCredentialProtocol) throws {
    #expect(
      registrationErrorCode {
        _ = try AndroidRegistry.data(
          for: [try Fixtures.mdl()], matcher: matcher, protocols: [.openID4VPDraft, protocolID])
      } == .unsupportedProtocol)
  }

  @Test("An empty protocol list is an error", arguments: AndroidMatcher.allCases)
  func noProtocols(matcher: AndroidMatcher) {
    #expect(
      registrationErrorCode {
        _ = try AndroidRegistry.data(for: [], matcher: matcher, protocols: [])
      } == .unsupportedProtocol)
  }

  @Test("Every matcher answers the legacy openid4vp protocol", arguments: AndroidMatcher.allCases)
  func legacyProtocol(matcher: AndroidMatcher) throws {
    #expect(throws: Never.self) {
      _ = try AndroidRegistry.data(
        for: [try Fixtures.mdl(), Fixtures.pid()], matcher: matcher, protocols: [.openID4VPDraft])
    }
  }

  @Test(
    "Reader gating with a matcher that cannot gate is an error",
    arguments: [AndroidMatcher.cmwallet, .ubique])
  func gatingUnsupported(matcher: AndroidMatcher) throws {
    let gated = Fixtures.pid(
      android: AndroidRegistrationOptions(supportedAuthorityKeyIdentifiers: [Fixtures.readerAKI]))
    #expect(
      registrationErrorCode { _ = try AndroidRegistry.data(for: [gated], matcher: matcher) }
        == .readerGatingUnsupported)
    #expect(throws: Never.self) { _ = try AndroidRegistry.data(for: [gated], matcher: .multipaz) }
  }

  @Test("Empty key identifiers, duplicate ids and empty types are errors")
  func invalidInputs() throws {
    let emptyKey = Fixtures.pid(
      android: AndroidRegistrationOptions(issuerAuthorityKeyIdentifiers: [KeyIdentifier([])]))
    #expect(
      registrationErrorCode { _ = try AndroidRegistry.data(for: [emptyKey], matcher: .multipaz) }
        == .invalidKeyIdentifier)
    #expect(
      registrationErrorCode {
        _ = try AndroidRegistry.data(for: [Fixtures.pid(), Fixtures.pid()], matcher: .multipaz)
      }
        == .duplicateCredentialID)
    #expect(
      registrationErrorCode {
        _ = try AndroidRegistry.data(for: [Fixtures.pid(vct: "")], matcher: .ubique)
      } == .invalidDescription)
    let emptyPath = CredentialDescription(
      id: "x", display: CredentialDisplayInfo(title: "X"),
      credential: .sdJWT(vct: "v", claims: [[]: RegisteredClaim("1")]))
    #expect(
      registrationErrorCode { _ = try AndroidRegistry.data(for: [emptyPath], matcher: .multipaz) }
        == .invalidClaimPath)
  }

  /// Claims built in a different insertion order, so the dictionaries' iteration order differs.
  func shuffledMdl(seed: Int) throws -> CredentialDescription {
    var elements = [
      ("family_name", RegisteredClaim("Mustermann")), ("given_name", RegisteredClaim("Erika")),
      ("birth_date", RegisteredClaim(.date(try Fixtures.birthDate()))),
      ("age_over_18", RegisteredClaim(true)),
      ("age_over_21", RegisteredClaim(true)), ("document_number", RegisteredClaim("T22000129")),
      ("issuing_country", RegisteredClaim("DE")), ("portrait", RegisteredClaim(.null)),
    ]
    var generator = SplitMix(seed: UInt64(seed))
    elements.shuffle(using: &generator)
    var nameSpace: [String: RegisteredClaim] = [:]
    for (key, value) in elements { nameSpace[key] = value }
    var claims: [[String]: RegisteredClaim] = [:]
    for (key, value) in elements.reversed() { claims[["nested", key]] = value }
    return CredentialDescription(
      id: "m", display: CredentialDisplayInfo(title: "T"),
      credential: seed % 2 == 0
        ? .mdoc(
          docType: "org.iso.18013.5.1.mDL",
          nameSpaces: ["org.iso.18013.5.1": nameSpace, "org.example": nameSpace])
        : .sdJWT(vct: "v", claims: claims))
  }

  @Test(
    "The same input gives the same bytes; claim order does not matter (claims are sorted)",
    arguments: AndroidMatcher.allCases)
  func determinism(matcher: AndroidMatcher) throws {
    for parity in 0..<2 {
      let reference = try AndroidRegistry.data(
        for: [try shuffledMdl(seed: parity)], matcher: matcher)
      #expect(
        try AndroidRegistry.data(for: [try shuffledMdl(seed: parity)], matcher: matcher)
          == reference)
      for seed in stride(from: parity + 2, to: parity + 40, by: 2) {
        #expect(
          try AndroidRegistry.data(for: [try shuffledMdl(seed: seed)], matcher: matcher)
            == reference)
      }
    }
  }

  @Test(
    "Credential order is preserved: it is the picker's order", arguments: AndroidMatcher.allCases)
  func credentialOrder(matcher: AndroidMatcher) throws {
    let forward = try AndroidRegistry.data(
      for: [Fixtures.pid(id: "a"), Fixtures.pid(id: "b")], matcher: matcher)
    let backward = try AndroidRegistry.data(
      for: [Fixtures.pid(id: "b"), Fixtures.pid(id: "a")], matcher: matcher)
    #expect(forward != backward)
  }

  @Test("The data is registered under both credential types")
  func credentialTypes() {
    #expect(
      AndroidRegistry.credentialTypes == [
        "com.credman.IdentityCredential", "androidx.credentials.TYPE_DIGITAL_CREDENTIAL",
      ])
  }
}

/// A seeded generator so shuffles are reproducible (DESIGN.md: randomness is injected).
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
