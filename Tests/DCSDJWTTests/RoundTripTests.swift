import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCSDJWT
import DCX509
import Foundation
import Testing

/// Issue -> parse -> verify -> present subsets -> verify the presentation.
@Suite("SD-JWT round trips")
struct RoundTripTests {
  static let now = Date.unix(1_780_000_000)
  static let origin = "origin:https://verifier.example"
  static let nonce = "n-0S6_WzA2Mj"

  static let claims: JSONValue = [
    "given_name": "Erika",
    "family_name": "Mustermann",
    "birthdate": "1964-08-12",
    "address": [
      "street_address": "Heidestraße 17", "locality": "Köln", "country": "DE",
    ],
    "nationalities": ["DE", "FR"],
    "age_equal_or_over": ["18": true, "65": false],
  ]

  static let disclosable: [ClaimPath] = [
    "given_name", "family_name", "birthdate", "address", "address.street_address",
    "address.locality", "nationalities.0", "nationalities.1",
    ClaimPath([.key("age_equal_or_over"), .key("18")]),
    ClaimPath([.key("age_equal_or_over"), .key("65")]),
  ].map { $0 }

  struct Fixture {
    let issuer: ECPrivateKey
    let holder: ECPrivateKey
    let sdJWT: SDJWT
  }

  static func fixture(
    hash: SDHashAlgorithm = .sha256, curve: EllipticCurve = .p256, decoys: Int = 2,
    x5c: [Certificate] = [], issuerKey: ECPrivateKey? = nil
  ) throws -> Fixture {
    let issuer = try issuerKey ?? ECPrivateKey(curve: curve)
    let holder = try ECPrivateKey(curve: .p256)
    let sdJWT = try SDJWTIssuer.issue(
      claims: claims, selectivelyDisclosable: disclosable, decoys: decoys,
      holderKey: holder.publicKey, vct: "urn:eudi:pid:1", issuer: "https://issuer.example",
      issuedAt: now.addingTimeInterval(-3600), expiresAt: now.addingTimeInterval(86_400 * 365),
      hashAlgorithm: hash, signer: issuer, x5c: x5c, random: SecureRandom())
    return Fixture(issuer: issuer, holder: holder, sdJWT: sdJWT)
  }

  func keyBinding(_ f: Fixture, hashes: [String]? = nil) -> KeyBinding {
    KeyBinding(
      signer: f.holder, audience: Self.origin, nonce: Self.nonce, issuedAt: Self.now,
      transactionDataHashes: hashes)
  }

  @Test(
    "Issued SD-JWT VC verifies and processes back to the claims",
    arguments: SDHashAlgorithm.allCases)
  func issueAndVerify(_ hash: SDHashAlgorithm) throws {
    let f = try Self.fixture(hash: hash)
    #expect(f.sdJWT.hashAlgorithm == hash)
    #expect(f.sdJWT.issuerSignedJWT.type == "dc+sd-jwt")
    #expect(f.sdJWT.disclosures.count == Self.disclosable.count)
    #expect(f.sdJWT.keyBindingJWT == nil)
    #expect(f.sdJWT.serialized.hasSuffix("~"))
    let verified = try f.sdJWT.verify(issuerKey: f.issuer.publicKey, now: Self.now)
    #expect(verified.vct == "urn:eudi:pid:1")
    #expect(verified.issuer == "https://issuer.example")
    #expect(verified.holderKey == f.holder.publicKey)
    #expect(verified.trust == .issuerKey)
    #expect(Set(verified.disclosuresByPath.keys) == Set(Self.disclosable))
    var userClaims = verified.payload
    for name in ["iss", "iat", "exp", "vct", "cnf"] { userClaims = userClaims.removing(name) }
    #expect(canonical(userClaims) == canonical(Self.claims))
    #expect(verified.payload["_sd_alg"] == nil)
  }

  @Test("Issuer payload: sorted _sd with decoys, 128-bit salts, no cleartext of disclosed claims")
  func issuerPayloadShape() throws {
    let f = try Self.fixture(decoys: 3)
    let payload = f.sdJWT.issuerPayload
    let topLevel = try #require(payload["_sd"]?.array).compactMap(\.string)
    // given_name, family_name, birthdate, address + 3 decoys.
    #expect(topLevel.count == 4 + 3)
    #expect(topLevel == topLevel.sorted())
    #expect(payload["given_name"] == nil && payload["address"] == nil)
    #expect(payload["_sd_alg"] == "sha-256")
    #expect(payload["nationalities"]?[0]?["..."]?.string != nil)
    for disclosure in f.sdJWT.disclosures {
      #expect(try Base64URL.decode(disclosure.salt).count == 16)
      #expect(try Disclosure(disclosure.encoded) == disclosure)
    }
    let nested = try #require(payload["age_equal_or_over"]?["_sd"]?.array)
    #expect(nested.count == 2 + 3)
  }

  @Test("P-384 and P-521 issuers", arguments: [EllipticCurve.p384, .p521])
  func otherCurves(_ curve: EllipticCurve) throws {
    let f = try Self.fixture(curve: curve)
    let verified = try f.sdJWT.verify(issuerKey: f.issuer.publicKey, now: Self.now)
    #expect(verified.payload["given_name"] == "Erika")
  }

  @Test("A nested claim brings its enclosing Disclosure, and nothing else")
  func nestedClaim() throws {
    let f = try Self.fixture()
    let presentation = try f.sdJWT.present(
      disclosing: ["address.street_address"], keyBinding: keyBinding(f))
    let parsed = try SDJWT(serialized: presentation)
    #expect(Set(parsed.disclosures.compactMap(\.name)) == ["address", "street_address"])
    #expect(parsed.keyBindingJWT != nil)
    let result = try SDJWT.verifyPresentation(
      serialized: presentation, issuerKey: f.issuer.publicKey, expectedAudience: Self.origin,
      expectedNonce: Self.nonce, now: Self.now.addingTimeInterval(5))
    let payload = result.credential.payload
    #expect(payload["address"] == ["country": "DE", "street_address": "Heidestraße 17"])
    #expect(payload["given_name"] == nil)
    #expect(payload["nationalities"] == [])
    #expect(payload["age_equal_or_over"] == [:])
    #expect(Set(result.credential.disclosuresByPath.keys) == ["address", "address.street_address"])
    #expect(result.keyBinding?.audience == Self.origin)
    #expect(result.keyBinding?.nonce == Self.nonce)
    #expect(result.keyBinding?.sdHash == parsed.sdHash)
  }

  @Test("Disclosing an object brings every Disclosure below it")
  func wholeObject() throws {
    let f = try Self.fixture()
    let presentation = try f.sdJWT.present(disclosing: ["address"], keyBinding: keyBinding(f))
    let result = try SDJWT.verifyPresentation(
      serialized: presentation, issuerKey: f.issuer.publicKey, expectedAudience: Self.origin,
      expectedNonce: Self.nonce, now: Self.now)
    #expect(
      canonical(result.credential.payload["address"] ?? nil)
        == canonical(Self.claims["address"] ?? nil))
    #expect(try SDJWT(serialized: presentation).disclosures.count == 3)
  }

  @Test("Array elements: the second nationality alone, reported at its presented index")
  func arrayElement() throws {
    let f = try Self.fixture()
    let presentation = try f.sdJWT.present(
      disclosing: ["nationalities.1", ClaimPath([.key("age_equal_or_over"), .key("18")])],
      keyBinding: keyBinding(f))
    #expect(try SDJWT(serialized: presentation).disclosures.count == 2)
    let result = try SDJWT.verifyPresentation(
      serialized: presentation, issuerKey: f.issuer.publicKey, expectedAudience: Self.origin,
      expectedNonce: Self.nonce, now: Self.now)
    #expect(result.credential.payload["nationalities"] == ["FR"])
    #expect(result.credential.payload["age_equal_or_over"] == ["18": true])
    let byPath = result.credential.disclosuresByPath
    #expect(byPath[ClaimPath(dotted: "nationalities.0")]?.value == "FR")
    #expect(byPath[ClaimPath([.key("age_equal_or_over"), .key("18")])]?.name == "18")
  }

  @Test("Presenting nothing selective shows only the always-visible claims")
  func nothingSelective() throws {
    let f = try Self.fixture()
    let presentation = try f.sdJWT.present(disclosing: [], keyBinding: keyBinding(f))
    let parsed = try SDJWT(serialized: presentation)
    #expect(parsed.disclosures.isEmpty)
    #expect(parsed.sdHashInput == f.sdJWT.issuerSignedJWT.compactSerialization + "~")
    let result = try SDJWT.verifyPresentation(
      serialized: presentation, issuerKey: f.issuer.publicKey, expectedAudience: Self.origin,
      expectedNonce: Self.nonce, now: Self.now)
    #expect(
      result.credential.payload.keys.sorted()
        == [
          "address", "age_equal_or_over", "cnf", "exp", "iat", "iss", "nationalities", "vct",
        ].sorted().filter { $0 != "address" })
  }

  @Test("Predicate selection keeps the original Disclosure strings in issued order")
  func predicateSelection() throws {
    let f = try Self.fixture()
    let presentation = try f.sdJWT.present(
      where: { path, _ in path.components.first == .key("address") && path.components.count == 2 },
      keyBinding: nil)
    let parsed = try SDJWT(serialized: presentation)
    let expected = f.sdJWT.disclosures.filter {
      ["address", "street_address", "locality"].contains($0.name ?? "")
    }
    #expect(parsed.disclosures.map(\.encoded) == expected.map(\.encoded))
    #expect(parsed.keyBindingJWT == nil)
    #expect(presentation.hasSuffix("~"))
  }

  @Test("Transaction data hashes travel in the KB-JWT")
  func transactionData() throws {
    let f = try Self.fixture()
    let presentation = try f.sdJWT.present(
      disclosing: ["given_name"], keyBinding: keyBinding(f, hashes: ["aGFzaA"]))
    let result = try SDJWT.verifyPresentation(
      serialized: presentation, issuerKey: f.issuer.publicKey, expectedAudience: Self.origin,
      expectedNonce: Self.nonce, now: Self.now)
    #expect(result.keyBinding?.transactionDataHashes == ["aGFzaA"])
    #expect(result.keyBinding?.transactionDataHashesAlg == nil)
    let kb = try #require(try SDJWT(serialized: presentation).keyBindingJWT)
    #expect(kb.protectedHeader == ["typ": "kb+jwt", "alg": "ES256"])
    #expect(
      try JSONValue(parsing: kb.payload).keys == [
        "iat", "aud", "nonce", "sd_hash", "transaction_data_hashes",
      ])
  }

  @Test("Issuer key from an x5c chain that validates to the trust anchor")
  func x5cChain() throws {
    let rootKey = try ECPrivateKey(curve: .p256)
    let signerKey = try ECPrivateKey(curve: .p256)
    let (root, leaf) = try Self.chain(rootKey: rootKey, signerKey: signerKey)
    let f = try Self.fixture(x5c: [leaf], issuerKey: signerKey)
    let verified = try f.sdJWT.verify(trustAnchors: [root], at: Self.now)
    #expect(verified.trust.isCertificateChain)
    #expect(verified.issuerCertificateChain == [leaf])
    let presentation = try f.sdJWT.present(disclosing: ["birthdate"], keyBinding: keyBinding(f))
    let result = try SDJWT.verifyPresentation(
      serialized: presentation, trustAnchors: [root], expectedAudience: Self.origin,
      expectedNonce: Self.nonce, now: Self.now)
    #expect(result.credential.payload["birthdate"] == "1964-08-12")
  }

  static func chain(rootKey: ECPrivateKey, signerKey: ECPrivateKey) throws -> (
    Certificate, Certificate
  ) {
    let root = try CertificateBuilder.iaca(
      commonName: "Test PID Issuer Root", country: "DE", publicKey: rootKey.publicKey,
      notBefore: now.addingTimeInterval(-86_400 * 30),
      notAfter: now.addingTimeInterval(86_400 * 3650)
    ).selfSigned(signer: rootKey)
    return (root, try issuerLeaf(signerKey: signerKey, root: root, rootKey: rootKey))
  }

  /// An SD-JWT VC issuer certificate: an end entity that signs and names `issuer.example`, the
  /// host of the fixture's `iss` (SD-JWT VC, inline X.509).
  static func issuerLeaf(
    signerKey: ECPrivateKey, root: Certificate, rootKey: ECPrivateKey,
    names: [GeneralName] = [.dnsName("issuer.example")],
    extensions: [CertificateExtension] = [.keyUsage(.digitalSignature)]
  ) throws -> Certificate {
    try CertificateBuilder(
      subject: DistinguishedName(commonName: "Test PID Issuer", country: "DE"),
      publicKey: signerKey.publicKey, notBefore: now.addingTimeInterval(-86_400),
      notAfter: now.addingTimeInterval(86_400 * 365),
      extensions: extensions + (names.isEmpty ? [] : [.subjectAlternativeNames(names)])
    ).issued(by: root, signer: rootKey)
  }

  @Test("ClaimPath dotted form")
  func claimPath() {
    let path = ClaimPath(dotted: "nationalities.0")
    #expect(path.components == [.key("nationalities"), .index(0)])
    #expect(path.dotted == "nationalities.0")
    #expect(ClaimPath(dotted: "address.street_address") == ["address", "street_address"])
    #expect(ClaimPath(dotted: "") == [])
    #expect(ClaimPath(dotted: "a.b").hasPrefix("a"))
    #expect(!ClaimPath(dotted: "a").hasPrefix("a.b"))
    #expect(ClaimPath(dotted: "nationalities.1").value(in: Self.claims) == "FR")
  }
}

extension IssuerTrust {
  var isCertificateChain: Bool {
    if case .certificateChain = self { return true }
    return false
  }
}
