import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCSDJWT
import DCX509
import Foundation
import Testing

/// Every check that protects the verifier or the holder fails closed.
@Suite("SD-JWT negative cases")
struct NegativeTests {
  static let now = RoundTripTests.now
  static let origin = RoundTripTests.origin
  static let nonce = RoundTripTests.nonce

  let issuer: ECPrivateKey
  let holder: ECPrivateKey
  let sdJWT: SDJWT

  init() throws {
    let f = try RoundTripTests.fixture()
    issuer = f.issuer
    holder = f.holder
    sdJWT = f.sdJWT
  }

  func verifyPresentation(_ serialized: String, now: Date = Self.now) throws -> VerifiedPresentation
  {
    try SDJWT.verifyPresentation(
      serialized: serialized, issuerKey: issuer.publicKey, expectedAudience: Self.origin,
      expectedNonce: Self.nonce, now: now)
  }

  func present(_ paths: [ClaimPath] = ["given_name"], signer: (any Signer)? = nil) throws -> String
  {
    try sdJWT.present(
      disclosing: paths,
      keyBinding: KeyBinding(
        signer: signer ?? holder, audience: Self.origin, nonce: Self.nonce, issuedAt: Self.now))
  }

  /// A payload with a holder key, for crafted SD-JWTs.
  func payload(_ members: [(key: String, value: JSONValue)]) -> JSONValue {
    .object(
      [
        ("iss", "https://issuer.example"), ("iat", 1_779_990_000), ("vct", "urn:test"),
        ("cnf", .object([("jwk", JWK(publicKey: holder.publicKey).json)])),
      ] + members)
  }

  func disclosure(_ name: String?, _ value: JSONValue, salt: String = "c2FsdHNhbHRzYWx0c2FsdA")
    throws -> Disclosure
  {
    try Disclosure(salt: salt, name: name, value: value)
  }

  func verifyCrafted(_ serialized: String) throws -> VerifiedSDJWT {
    try SDJWT(serialized: serialized).verify(issuerKey: issuer.publicKey, now: Self.now)
  }

  // MARK: Disclosures and digests

  @Test("A disclosure with one character changed is referenced by no digest")
  func tamperedDisclosure() throws {
    let original = try #require(sdJWT.disclosures.first { $0.name == "given_name" })
    var tampered: String?
    let text = Array(original.encoded)
    // Change one character in the salt so the result still parses as a disclosure.
    search: for index in 4..<min(20, text.count) {
      for replacement in Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
      where replacement != text[index] {
        var copy = text
        copy[index] = replacement
        if (try? Disclosure(String(copy))) != nil {
          tampered = String(copy)
          break search
        }
      }
    }
    let changed = try #require(tampered)
    let serialized = sdJWT.serialized.replacingOccurrences(of: original.encoded, with: changed)
    expectSDJWTError(.unreferencedDisclosure) { try SDJWT(serialized: serialized).process() }
    expectSDJWTError(.unreferencedDisclosure) {
      try SDJWT(serialized: serialized).verify(issuerKey: issuer.publicKey, now: Self.now)
    }
  }

  @Test("The same disclosure presented twice")
  func duplicateDisclosure() throws {
    let d = try #require(sdJWT.disclosures.first)
    expectSDJWTError(.duplicateDisclosure) {
      try SDJWT(serialized: sdJWT.serialized + d.encoded + "~").process()
    }
  }

  @Test("A digest referenced twice, in _sd and in an array")
  func digestTwice() throws {
    let d = try disclosure("given_name", "Erika")
    let digest = JSONValue.string(d.digest())
    expectSDJWTError(.duplicateDigest) {
      try verifyCrafted(
        craftedSDJWT(
          payload: payload([("_sd", [digest, digest])]), disclosures: [d.encoded], signer: issuer))
    }
    expectSDJWTError(.duplicateDigest) {
      try verifyCrafted(
        craftedSDJWT(
          payload: payload([("_sd", [digest]), ("nested", ["_sd": [digest]])]),
          disclosures: [d.encoded], signer: issuer))
    }
    // A decoy digest repeated is a duplicate too (RFC 9901 §7.1 step 4).
    expectSDJWTError(.duplicateDigest) {
      try verifyCrafted(
        craftedSDJWT(
          payload: payload([("list", [["...": "ZGVjb3k"], ["...": "ZGVjb3k"]])]), disclosures: [],
          signer: issuer))
    }
  }

  @Test("A disclosed claim name that already exists")
  func nameCollision() throws {
    let d = try disclosure("given_name", "Mallory")
    expectSDJWTError(.claimNameConflict) {
      try verifyCrafted(
        craftedSDJWT(
          payload: payload([("given_name", "Erika"), ("_sd", [.string(d.digest())])]),
          disclosures: [d.encoded], signer: issuer))
    }
  }

  @Test("_sd and ... are not claim names")
  func reservedNames() throws {
    for name in ["_sd", "..."] {
      let raw = Base64URL.encode(JSONValue.array(["c2FsdA", .string(name), 1]).serializedBytes())
      expectSDJWTError(.invalidDisclosure) { try Disclosure(raw) }
      expectSDJWTError(.invalidDisclosure) { try Disclosure(salt: "c2FsdA", name: name, value: 1) }
    }
    for bad in ["[]", "[\"s\"]", "[1,\"n\",2]", "[\"s\",2,3]", "{\"a\":1}", "[\"s\",\"n\",1,2]"] {
      expectSDJWTError(.invalidDisclosure) { try Disclosure(Base64URL.encode(Array(bad.utf8))) }
    }
    expectSDJWTError(.invalidDisclosure) { try Disclosure("not base64url!") }
  }

  @Test("An object disclosure in an array position, and an element disclosure in _sd")
  func wrongDisclosureKind() throws {
    let property = try disclosure("given_name", "Erika")
    let element = try disclosure(nil, "DE")
    expectSDJWTError(.invalidDisclosure) {
      try verifyCrafted(
        craftedSDJWT(
          payload: payload([("list", [["...": .string(property.digest())]])]),
          disclosures: [property.encoded], signer: issuer))
    }
    expectSDJWTError(.invalidDisclosure) {
      try verifyCrafted(
        craftedSDJWT(
          payload: payload([("_sd", [.string(element.digest())])]),
          disclosures: [element.encoded], signer: issuer))
    }
  }

  @Test("_sd must be an array of strings")
  func sdShape() throws {
    for bad: JSONValue in ["abc", [1], ["a": 1]] {
      expectSDJWTError(.malformed) {
        try verifyCrafted(
          craftedSDJWT(payload: payload([("_sd", bad)]), disclosures: [], signer: issuer))
      }
    }
    expectSDJWTError(.malformed) {
      try verifyCrafted(
        craftedSDJWT(payload: payload([("list", [["...": 5]])]), disclosures: [], signer: issuer))
    }
  }

  @Test("Unsupported _sd_alg")
  func unsupportedHash() throws {
    expectSDJWTError(.unsupportedHashAlgorithm) {
      try SDJWT(
        serialized: craftedSDJWT(
          payload: payload([("_sd_alg", "md5")]), disclosures: [], signer: issuer))
    }
  }

  @Test("Malformed serializations")
  func malformed() throws {
    let jwt = sdJWT.issuerSignedJWT.compactSerialization
    expectSDJWTError(.malformed) { try SDJWT(serialized: jwt) }
    expectSDJWTError(.malformed) { try SDJWT(serialized: jwt + "~~") }
    expectSDJWTError(.malformed) { try SDJWT(serialized: "a.b~") }
    expectSDJWTError(.invalidKeyBinding) { try SDJWT(serialized: jwt + "~not-a-jwt") }
  }

  // MARK: Issuer

  @Test("Wrong issuer key")
  func wrongIssuerKey() throws {
    let other = try ECPrivateKey(curve: .p256)
    expectSDJWTError(.invalidIssuerSignature) {
      try sdJWT.verify(issuerKey: other.publicKey, now: Self.now)
    }
    let p384 = try ECPrivateKey(curve: .p384)
    expectSDJWTError(.invalidIssuerSignature) {
      try sdJWT.verify(issuerKey: p384.publicKey, now: Self.now)
    }
  }

  @Test("Untrusted or missing x5c chain")
  func untrustedChain() throws {
    let rootKey = try ECPrivateKey(curve: .p256)
    let signerKey = try ECPrivateKey(curve: .p256)
    let (root, leaf) = try RoundTripTests.chain(rootKey: rootKey, signerKey: signerKey)
    let otherRootKey = try ECPrivateKey(curve: .p256)
    let (otherRoot, _) = try RoundTripTests.chain(rootKey: otherRootKey, signerKey: signerKey)
    let f = try RoundTripTests.fixture(x5c: [leaf], issuerKey: signerKey)
    expectSDJWTError(.untrustedIssuer) {
      try f.sdJWT.verify(trustAnchors: [otherRoot], at: Self.now)
    }
    // The chain is valid, but not at this time.
    expectSDJWTError(.untrustedIssuer) {
      try f.sdJWT.verify(trustAnchors: [root], at: Self.now.addingTimeInterval(86_400 * 400))
    }
    // No x5c at all.
    expectSDJWTError(.untrustedIssuer) { try sdJWT.verify(trustAnchors: [root], at: Self.now) }
    // A leaf that validates but did not sign the JWT.
    let g = try RoundTripTests.fixture(x5c: [leaf])
    expectSDJWTError(.invalidIssuerSignature) {
      try g.sdJWT.verify(trustAnchors: [root], at: Self.now)
    }
  }

  @Test("Expired, not yet valid, issued in the future")
  func times() throws {
    let f = try RoundTripTests.fixture()
    expectSDJWTError(.expired) {
      try f.sdJWT.verify(
        issuerKey: f.issuer.publicKey, now: Self.now.addingTimeInterval(86_400 * 366))
    }
    expectSDJWTError(.notYetValid) {
      try f.sdJWT.verify(issuerKey: f.issuer.publicKey, now: Self.now.addingTimeInterval(-7200))
    }
    let notBefore = try SDJWTIssuer.issue(
      claims: ["a": 1], selectivelyDisclosable: ["a"], holderKey: nil, vct: "urn:test", issuer: nil,
      issuedAt: Self.now, notBefore: Self.now.addingTimeInterval(3600), signer: issuer,
      random: SecureRandom())
    expectSDJWTError(.notYetValid) {
      try notBefore.verify(issuerKey: issuer.publicKey, now: Self.now.addingTimeInterval(60))
    }
    #expect(throws: Never.self) {
      try notBefore.verify(issuerKey: issuer.publicKey, now: Self.now.addingTimeInterval(3600))
    }
  }

  @Test("alg none is refused for the issuer JWT and the KB-JWT")
  func algNone() throws {
    let header = Base64URL.encode(Array(#"{"alg":"none","typ":"dc+sd-jwt"}"#.utf8))
    let body = Base64URL.encode(payload([]).serializedBytes())
    expectSDJWTError(.malformed) { try SDJWT(serialized: "\(header).\(body).~") }
    let kbHeader = Base64URL.encode(Array(#"{"alg":"none","typ":"kb+jwt"}"#.utf8))
    expectSDJWTError(.invalidKeyBinding) {
      try SDJWT(serialized: sdJWT.serialized + "\(kbHeader).\(body).")
    }
  }

  @Test("typ and vct for SD-JWT VC")
  func vcProfile() throws {
    let wrongType = try craftedSDJWT(
      payload: payload([]), disclosures: [], signer: issuer, header: ["typ": "example+sd-jwt"])
    expectSDJWTError(.invalidType) { try verifyCrafted(wrongType) }
    #expect(throws: Never.self) {
      try SDJWT(serialized: wrongType).verify(
        issuerKey: issuer.publicKey, now: Self.now, options: .init(profile: .sdJWT))
    }
    let legacy = try craftedSDJWT(
      payload: payload([]), disclosures: [], signer: issuer, header: ["typ": "vc+sd-jwt"])
    #expect(throws: Never.self) { try verifyCrafted(legacy) }
    let noVct = try craftedSDJWT(
      payload: payload([]).removing("vct"), disclosures: [], signer: issuer)
    expectSDJWTError(.missingClaim) { try verifyCrafted(noVct) }
    let numericVct = try craftedSDJWT(
      payload: payload([]).setting("vct", to: 7), disclosures: [], signer: issuer)
    expectSDJWTError(.invalidClaim) { try verifyCrafted(numericVct) }
  }

  @Test(
    "cnf, vct, iss, nbf, exp, status must not be selectively disclosed",
    arguments: ["cnf", "vct", "iss", "exp", "nbf", "status"])
  func forbiddenDisclosures(_ name: String) throws {
    var base = payload([])
    let value = base[name] ?? "x"
    base = base.removing(name)
    if name == "vct" { base = base.setting("vct_other", to: "x") }
    let d = try disclosure(name, value)
    let crafted = try craftedSDJWT(
      payload: base.setting("_sd", to: [.string(d.digest())]), disclosures: [d.encoded],
      signer: issuer)
    expectSDJWTError(.forbiddenDisclosure) { try verifyCrafted(crafted) }
    expectSDJWTError(.forbiddenDisclosure) {
      try SDJWTIssuer.issue(
        claims: ["status": ["idx": 1], "a": 1], selectivelyDisclosable: [ClaimPath(dotted: name)],
        holderKey: nil, vct: "urn:test", issuer: nil, issuedAt: nil, signer: issuer,
        random: SecureRandom())
    }
  }

  @Test("Sub-claims of cnf must not be disclosed; iat may be, and is still checked")
  func disclosedSubClaimsAndIat() throws {
    let jwk = try disclosure("jwk", JWK(publicKey: holder.publicKey).json)
    let crafted = try craftedSDJWT(
      payload: payload([]).setting("cnf", to: ["_sd": [.string(jwk.digest())]]),
      disclosures: [jwk.encoded], signer: issuer)
    expectSDJWTError(.forbiddenDisclosure) { try verifyCrafted(crafted) }

    // SD-JWT VC §3.2.2 lets iat be selectively disclosed.
    let iat = try disclosure("iat", .integer(Int64(Self.now.timeIntervalSince1970) - 10))
    let disclosedIat = try craftedSDJWT(
      payload: payload([]).removing("iat").setting("_sd", to: [.string(iat.digest())]),
      disclosures: [iat.encoded], signer: issuer)
    #expect(try verifyCrafted(disclosedIat).payload["iat"] == iat.value)
    let future = try disclosure("iat", .integer(Int64(Self.now.timeIntervalSince1970) + 3600))
    let disclosedFuture = try craftedSDJWT(
      payload: payload([]).removing("iat").setting("_sd", to: [.string(future.digest())]),
      disclosures: [future.encoded], signer: issuer)
    expectSDJWTError(.notYetValid) { try verifyCrafted(disclosedFuture) }
    let textual = try disclosure("iat", "yesterday")
    let disclosedText = try craftedSDJWT(
      payload: payload([]).removing("iat").setting("_sd", to: [.string(textual.digest())]),
      disclosures: [textual.encoded], signer: issuer)
    expectSDJWTError(.invalidClaim) { try verifyCrafted(disclosedText) }
  }

  @Test("The issuer refuses reserved names and unknown paths")
  func issuerInputs() throws {
    func issue(_ claims: JSONValue, _ paths: [ClaimPath]) throws -> SDJWT {
      try SDJWTIssuer.issue(
        claims: claims, selectivelyDisclosable: paths, holderKey: nil, vct: "urn:test",
        issuer: nil, issuedAt: nil, signer: issuer, random: SecureRandom())
    }
    expectSDJWTError(.malformed) { try issue(["_sd": []], []) }
    expectSDJWTError(.malformed) { try issue(["a": ["...": 1]], []) }
    expectSDJWTError(.malformed) { try issue(["vct": "x"], []) }
    expectSDJWTError(.malformed) { try issue([1], []) }
    expectSDJWTError(.claimNotFound) { try issue(["a": 1], ["b"]) }
    expectSDJWTError(.forbiddenDisclosure) { try issue(["status": ["idx": 1]], ["status.idx"]) }
    expectSDJWTError(.claimNotFound) { try issue(["a": [1]], ["a.1"]) }
    expectSDJWTError(.claimNotFound) {
      try sdJWT.present(disclosing: ["no_such_claim"], keyBinding: nil)
    }
  }

  // MARK: Key binding

  @Test("KB-JWT with the wrong aud or nonce")
  func wrongAudienceOrNonce() throws {
    let presentation = try present()
    expectSDJWTError(.keyBindingMismatch) {
      try SDJWT.verifyPresentation(
        serialized: presentation, issuerKey: issuer.publicKey,
        expectedAudience: "origin:https://evil.example", expectedNonce: Self.nonce, now: Self.now)
    }
    expectSDJWTError(.keyBindingMismatch) {
      try SDJWT.verifyPresentation(
        serialized: presentation, issuerKey: issuer.publicKey, expectedAudience: Self.origin,
        expectedNonce: "other", now: Self.now)
    }
    #expect(throws: Never.self) { try verifyPresentation(presentation) }
  }

  @Test("KB-JWT whose sd_hash does not cover the presented disclosures")
  func wrongSDHash() throws {
    let presentation = try present(["given_name", "family_name"])
    let parsed = try SDJWT(serialized: presentation)
    let dropped = try #require(parsed.disclosures.last)
    let stripped = presentation.replacingOccurrences(of: dropped.encoded + "~", with: "")
    expectSDJWTError(.keyBindingMismatch) { try verifyPresentation(stripped) }
    // A disclosure added after signing.
    let extra = try #require(sdJWT.disclosures.first { $0.name == "birthdate" })
    let kb = try #require(parsed.keyBindingJWT).compactSerialization
    let added = parsed.sdHashInput + extra.encoded + "~" + kb
    expectSDJWTError(.keyBindingMismatch) { try verifyPresentation(added) }
  }

  @Test("KB-JWT signed by a key other than cnf.jwk")
  func wrongHolderKey() throws {
    let other = try ECPrivateKey(curve: .p256)
    // Our holder API refuses to sign with the wrong key ...
    expectSDJWTError(.missingHolderBinding) { try present(signer: other) }
    // ... so craft one.
    let body = try SDJWT(serialized: sdJWT.present(disclosing: ["given_name"], keyBinding: nil))
    let kb = try craftedKeyBindingJWT(
      claims: [
        "iat": .integer(Int64(Self.now.timeIntervalSince1970)), "aud": .string(Self.origin),
        "nonce": .string(Self.nonce), "sd_hash": .string(body.sdHash),
      ], signer: other)
    expectSDJWTError(.invalidKeyBinding) { try verifyPresentation(body.serialized + kb) }
  }

  @Test("KB-JWT with the wrong typ, a stale or a future iat, or missing claims")
  func badKeyBindingJWT() throws {
    let body = try SDJWT(serialized: sdJWT.present(disclosing: ["given_name"], keyBinding: nil))
    let good: JSONValue = [
      "iat": .integer(Int64(Self.now.timeIntervalSince1970)), "aud": .string(Self.origin),
      "nonce": .string(Self.nonce), "sd_hash": .string(body.sdHash),
    ]
    let goodKB = try craftedKeyBindingJWT(claims: good, signer: holder)
    #expect(throws: Never.self) { try verifyPresentation(body.serialized + goodKB) }
    // RFC 7515 §4.1.9: media types compare case-insensitively, `application/` implied.
    for header: JSONValue in [["typ": "KB+JWT"], ["typ": "application/kb+jwt"]] {
      let kb = try craftedKeyBindingJWT(claims: good, signer: holder, header: header)
      #expect(throws: Never.self) { try verifyPresentation(body.serialized + kb) }
    }
    for header: JSONValue in [["typ": "jwt"], [:], ["typ": "kb+jwt+x"], ["typ": "application/jwt"]]
    {
      let kb = try craftedKeyBindingJWT(claims: good, signer: holder, header: header)
      expectSDJWTError(.invalidKeyBinding) { try verifyPresentation(body.serialized + kb) }
    }
    for iat in [-3600.0, 3600.0] {
      let kb = try craftedKeyBindingJWT(
        claims: good.setting("iat", to: .integer(Int64(Self.now.timeIntervalSince1970 + iat))),
        signer: holder)
      expectSDJWTError(.invalidKeyBinding) { try verifyPresentation(body.serialized + kb) }
    }
    for claim in ["iat", "aud", "nonce", "sd_hash"] {
      let kb = try craftedKeyBindingJWT(claims: good.removing(claim), signer: holder)
      expectSDJWTError(.invalidKeyBinding) { try verifyPresentation(body.serialized + kb) }
    }
    let arrayAudience = try craftedKeyBindingJWT(
      claims: good.setting("aud", to: [.string(Self.origin)]), signer: holder)
    expectSDJWTError(.invalidKeyBinding) { try verifyPresentation(body.serialized + arrayAudience) }
  }

  @Test("No KB-JWT although the credential has cnf")
  func missingKeyBinding() throws {
    let presentation = try sdJWT.present(disclosing: ["given_name"], keyBinding: nil)
    expectSDJWTError(.missingKeyBinding) { try verifyPresentation(presentation) }
  }

  @Test("A KB-JWT for a credential without cnf")
  func keyBindingWithoutCnf() throws {
    let unbound = try SDJWTIssuer.issue(
      claims: ["a": 1], selectivelyDisclosable: ["a"], holderKey: nil, vct: "urn:test",
      issuer: nil, issuedAt: Self.now, signer: issuer, random: SecureRandom())
    expectSDJWTError(.missingHolderBinding) {
      try unbound.present(
        disclosing: ["a"],
        keyBinding: KeyBinding(
          signer: holder, audience: Self.origin, nonce: Self.nonce, issuedAt: Self.now))
    }
    let body = try SDJWT(serialized: unbound.present(disclosing: ["a"], keyBinding: nil))
    let kb = try craftedKeyBindingJWT(
      claims: [
        "iat": .integer(Int64(Self.now.timeIntervalSince1970)), "aud": .string(Self.origin),
        "nonce": .string(Self.nonce), "sd_hash": .string(body.sdHash),
      ], signer: holder)
    expectSDJWTError(.missingHolderBinding) { try verifyPresentation(body.serialized + kb) }
    // Without cnf and without KB-JWT the presentation verifies, with no key binding.
    let result = try verifyPresentation(body.serialized)
    #expect(result.keyBinding == nil)
    #expect(result.credential.payload["a"] == 1)
  }

  @Test("A cnf without a usable public jwk")
  func badCnf() throws {
    let privateJWK = JWK(privateKey: holder).json
    for cnf: JSONValue in ["x", ["kid": "k"], ["jwk": privateJWK], ["jwk": ["kty": "EC"]]] {
      let crafted = try craftedSDJWT(
        payload: payload([]).setting("cnf", to: cnf), disclosures: [], signer: issuer)
      expectSDJWTError(.missingHolderBinding) { try verifyCrafted(crafted) }
    }
  }
}
