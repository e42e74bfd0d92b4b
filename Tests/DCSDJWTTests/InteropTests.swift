import DCCrypto
import DCJOSE
import DCJSON
import DCSDJWT
import DCTestSupport
import Foundation
import Testing

/// Interop with the IETF reference implementation, PyPI `sd-jwt` (see ../shared/peers/README.md).
@Suite("SD-JWT interop (Python sd-jwt reference library)")
struct InteropTests {
  static let prelude = """
    import sys, json
    from jwcrypto.jwk import JWK
    from sd_jwt.issuer import SDJWTIssuer
    from sd_jwt.holder import SDJWTHolder
    from sd_jwt.verifier import SDJWTVerifier
    from sd_jwt.common import SDObj
    data = json.loads(sys.stdin.read())
    def verify(presentation, issuer_jwk, aud, nonce):
        key = JWK.from_json(json.dumps(issuer_jwk))
        v = SDJWTVerifier(presentation, lambda iss, header: key, expected_aud=aud, expected_nonce=nonce)
        return v.get_verified_payload()

    """

  static func run(_ body: String, input: JSONValue) throws -> JSONValue {
    let output = try PythonPeer.run(prelude + body, input: input.serialized())
    return try JSONValue(parsing: output.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  static let now = RoundTripTests.now
  static let origin = RoundTripTests.origin
  static let nonce = RoundTripTests.nonce

  @Test(
    "We verify and present an SD-JWT VC issued by the reference library; its verifier accepts",
    .pythonPeers)
  func referenceIssuance() throws {
    try PythonPeer.require("referenceIssuance")
    let issued = try Self.run(
      """
      issuer_key = JWK.generate(kty="EC", crv="P-256")
      holder_key = JWK.generate(kty="EC", crv="P-256")
      claims = {
          "iss": "https://issuer.example", "iat": data["iat"], "exp": data["exp"],
          "vct": "urn:eudi:pid:1",
          SDObj("given_name"): "Erika", SDObj("family_name"): "Mustermann",
          SDObj("address"): {SDObj("street_address"): "Heidestraße 17", "locality": "Köln"},
          "nationalities": [SDObj("DE"), SDObj("FR"), "IT"],
      }
      issuer = SDJWTIssuer(claims, issuer_key, holder_key, add_decoy_claims=True,
                           extra_header_parameters={"typ": "dc+sd-jwt"})
      print(json.dumps({
          "issuance": issuer.sd_jwt_issuance,
          "issuer_jwk": issuer_key.export_public(as_dict=True),
          "holder_jwk": holder_key.export(private_key=True, as_dict=True),
      }))
      """,
      input: [
        "iat": .integer(Int64(Self.now.timeIntervalSince1970) - 60),
        "exp": .integer(Int64(Self.now.timeIntervalSince1970) + 86_400),
      ])
    let issuerKey = try JWK(json: try #require(issued["issuer_jwk"])).publicKey()
    let holderKey = try JWK(json: try #require(issued["holder_jwk"])).privateKey()
    let sdJWT = try SDJWT(serialized: try #require(issued["issuance"]?.string))
    let verified = try sdJWT.verify(issuerKey: issuerKey, now: Self.now)
    #expect(verified.vct == "urn:eudi:pid:1")
    #expect(verified.holderKey == holderKey.publicKey)
    #expect(
      verified.payload["address"].map(canonical) == [
        "locality": "Köln", "street_address": "Heidestraße 17",
      ])
    #expect(verified.payload["nationalities"] == ["DE", "FR", "IT"])
    #expect(
      Set(verified.disclosuresByPath.keys)
        == [
          "given_name", "family_name", "address", "address.street_address", "nationalities.0",
          "nationalities.1",
        ])

    let presentation = try sdJWT.present(
      disclosing: ["address.street_address", "nationalities.1"],
      keyBinding: KeyBinding(
        signer: holderKey, audience: Self.origin, nonce: Self.nonce, issuedAt: Self.now))
    let ours = try SDJWT.verifyPresentation(
      serialized: presentation, issuerKey: issuerKey, expectedAudience: Self.origin,
      expectedNonce: Self.nonce, now: Self.now)
    let theirs = try Self.run(
      """
      print(json.dumps(verify(data["presentation"], data["issuer_jwk"], data["aud"], data["nonce"]), ensure_ascii=False))
      """,
      input: [
        "presentation": .string(presentation), "issuer_jwk": try #require(issued["issuer_jwk"]),
        "aud": .string(Self.origin), "nonce": .string(Self.nonce),
      ])
    #expect(canonical(theirs) == canonical(ours.credential.payload))
    #expect(
      theirs["address"].map(canonical) == ["locality": "Köln", "street_address": "Heidestraße 17"])
    #expect(theirs["nationalities"] == ["FR", "IT"])
    #expect(theirs["given_name"] == nil)
  }

  @Test(
    "The reference verifier accepts our issuance and presentation; we accept its presentation",
    .pythonPeers)
  func ourIssuance() throws {
    try PythonPeer.require("ourIssuance")
    let f = try RoundTripTests.fixture()
    let presentation = try f.sdJWT.present(
      disclosing: ["given_name", "address.locality", "nationalities.0"],
      keyBinding: KeyBinding(
        signer: f.holder, audience: Self.origin, nonce: Self.nonce, issuedAt: Self.now))
    let ours = try SDJWT.verifyPresentation(
      serialized: presentation, issuerKey: f.issuer.publicKey, expectedAudience: Self.origin,
      expectedNonce: Self.nonce, now: Self.now)
    let result = try Self.run(
      """
      theirs = verify(data["presentation"], data["issuer_jwk"], data["aud"], data["nonce"])
      holder = SDJWTHolder(data["issuance"])
      holder_key = JWK.from_json(json.dumps(data["holder_jwk"]))
      holder.create_presentation({"family_name": True, "address": {"street_address": True},
                                  "nationalities": [False, True]},
                                 nonce=data["nonce"], aud=data["aud"], holder_key=holder_key)
      print(json.dumps({"payload": theirs, "presentation": holder.sd_jwt_presentation}, ensure_ascii=False))
      """,
      input: [
        "presentation": .string(presentation), "issuance": .string(f.sdJWT.serialized),
        "issuer_jwk": JWK(publicKey: f.issuer.publicKey).json,
        "holder_jwk": JWK(privateKey: f.holder).json,
        "aud": .string(Self.origin), "nonce": .string(Self.nonce),
      ])
    let theirs = try #require(result["payload"])
    #expect(canonical(theirs) == canonical(ours.credential.payload))
    #expect(theirs["given_name"] == "Erika")
    #expect(theirs["address"].map(canonical) == ["country": "DE", "locality": "Köln"])
    #expect(theirs["nationalities"] == ["DE"])

    // The reference holder stamps its KB-JWT with the real clock, so check it against that.
    let theirPresentation = try #require(result["presentation"]?.string)
    let verified = try SDJWT.verifyPresentation(
      serialized: theirPresentation, issuerKey: f.issuer.publicKey, expectedAudience: Self.origin,
      expectedNonce: Self.nonce, now: Date(), options: .init(leeway: 120))
    #expect(verified.credential.payload["family_name"] == "Mustermann")
    #expect(
      verified.credential.payload["address"].map(canonical)
        == ["country": "DE", "street_address": "Heidestraße 17"])
    #expect(verified.credential.payload["nationalities"] == ["FR"])
    #expect(verified.credential.payload["given_name"] == nil)
  }

  @Test(
    "An unreferenced disclosure: the reference verifier lets it through, we refuse", .pythonPeers)
  func unreferencedDisclosure() throws {
    try PythonPeer.require("unreferencedDisclosure")
    let f = try RoundTripTests.fixture()
    let stray = try Disclosure(salt: "c3RyYXlzdHJheXN0cmF5", name: "given_name", value: "Mallory")
    let body =
      try f.sdJWT.present(disclosing: ["family_name"], keyBinding: nil) + stray.encoded + "~"
    let parsed = try SDJWT(serialized: body)
    let kb = try craftedKeyBindingJWT(
      claims: [
        "iat": .integer(Int64(Self.now.timeIntervalSince1970)), "aud": .string(Self.origin),
        "nonce": .string(Self.nonce), "sd_hash": .string(parsed.sdHash),
      ], signer: f.holder)
    let theirs = try Self.run(
      """
      print(json.dumps(verify(data["presentation"], data["issuer_jwk"], data["aud"], data["nonce"]), ensure_ascii=False))
      """,
      input: [
        "presentation": .string(body + kb), "issuer_jwk": JWK(publicKey: f.issuer.publicKey).json,
        "aud": .string(Self.origin), "nonce": .string(Self.nonce),
      ])
    #expect(theirs["family_name"] == "Mustermann")
    expectSDJWTError(.unreferencedDisclosure) {
      try SDJWT.verifyPresentation(
        serialized: body + kb, issuerKey: f.issuer.publicKey, expectedAudience: Self.origin,
        expectedNonce: Self.nonce, now: Self.now)
    }
  }
}
