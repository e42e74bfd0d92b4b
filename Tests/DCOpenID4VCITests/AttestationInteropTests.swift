import DCCrypto
import DCJOSE
import DCJSON
import DCOpenID4VCI
import DCOpenID4VCITestSupport
import DCTestSupport
import Foundation
import Testing

/// Client attestations, their PoPs and key attestations against joserfc and jwcrypto,
/// implementations we did not write.
@Suite("OpenID4VCI attestations interop (Python peers)")
struct AttestationInteropTests {
  static let prelude = """
    import sys, json, base64
    from joserfc import jwt, jws
    from joserfc.jwk import ECKey
    import jwcrypto.jwk, jwcrypto.jws
    registry = jws.JWSRegistry(algorithms=["ES256"], strict_check_header=False)
    def both_verify(token, jwk):
        decoded = jwt.decode(token, ECKey.import_key(jwk), algorithms=["ES256"], registry=registry)
        signed = jwcrypto.jws.JWS()
        signed.deserialize(token)
        signed.verify(jwcrypto.jwk.JWK(**jwk), alg="ES256")
        assert json.loads(signed.payload) == decoded.claims
        return {"header": decoded.header, "claims": decoded.claims}
    data = json.loads(sys.stdin.read())

    """

  static func run(_ body: String, input: JSONValue) throws -> JSONValue {
    let output = try PythonPeer.run(prelude + body, input: input.serialized())
    return try JSONValue(parsing: output.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  @Test(
    "joserfc and jwcrypto verify our client attestation, its PoP (by cnf.jwk) and a key attestation",
    .pythonPeers)
  func oursInPython() throws {
    try PythonPeer.require("attestationsOursInPython")
    let attester = try ECPrivateKey(curve: .p256)
    let instance = try ECPrivateKey(curve: .p256)
    let device = try ECPrivateKey(curve: .p256)
    let attestation = try ClientAttestation.attestation(
      signer: attester, keyHeader: .kid("11"), issuer: "https://provider.example",
      clientID: "https://wallet.example.org", instanceKey: instance.publicKey, issuedAt: testNow,
      expiresAt: testNow.addingTimeInterval(3600))
    let pop = try ClientAttestation.proofOfPossession(
      signer: instance, audience: "https://as.example.com", issuedAt: testNow, challenge: "c-1")
    let keyAttestation = try KeyAttestation.attestation(
      signer: attester, keyHeader: .kid("11"), issuer: nil, attestedKeys: [device.publicKey],
      issuedAt: testNow, expiresAt: testNow.addingTimeInterval(60), keyStorage: ["iso_18045_high"])
    let result = try Self.run(
      """
      a = both_verify(data["attestation"], data["attester"])
      p = both_verify(data["pop"], a["claims"]["cnf"]["jwk"])
      k = both_verify(data["key"], data["attester"])
      print(json.dumps({"a": a, "p": p, "k": k,
        "cnf": jwcrypto.jwk.JWK(**a["claims"]["cnf"]["jwk"]).thumbprint(),
        "attested": jwcrypto.jwk.JWK(**k["claims"]["attested_keys"][0]).thumbprint()}))
      """,
      input: [
        "attestation": .string(attestation), "pop": .string(pop), "key": .string(keyAttestation),
        "attester": JWK(publicKey: attester.publicKey).json,
      ])
    #expect(result["a"]?["header"]?["typ"] == "oauth-client-attestation+jwt")
    #expect(result["a"]?["claims"]?["sub"] == "https://wallet.example.org")
    #expect(result["p"]?["header"]?["typ"] == "oauth-client-attestation-pop+jwt")
    #expect(result["p"]?["claims"]?["aud"] == "https://as.example.com")
    #expect(result["p"]?["claims"]?["challenge"] == "c-1")
    #expect(result["k"]?["header"]?["typ"] == "key-attestation+jwt")
    #expect(result["k"]?["claims"]?["key_storage"] == ["iso_18045_high"])
    #expect(result["cnf"]?.string == JWK(publicKey: instance.publicKey).thumbprintBase64URL)
    #expect(result["attested"]?.string == JWK(publicKey: device.publicKey).thumbprintBase64URL)
  }

  @Test(
    "We verify joserfc's client attestation, PoP and key attestation; a wrong aud is refused",
    .pythonPeers)
  func pythonInOurs() throws {
    try PythonPeer.require("attestationsPythonInOurs")
    let result = try Self.run(
      """
      attester = ECKey.generate_key("P-256")
      instance = ECKey.generate_key("P-256")
      device = ECKey.generate_key("P-256")
      now = data["iat"]
      def sign(typ, claims, key):
          return jwt.encode({"typ": typ, "alg": "ES256"}, claims, key, algorithms=["ES256"], registry=registry)
      attestation = sign("oauth-client-attestation+jwt", {"iss": "https://provider.example",
        "sub": "wallet-client", "iat": now, "exp": now + 3600,
        "cnf": {"jwk": instance.as_dict(private=False)}}, attester)
      def pop(aud):
          return sign("oauth-client-attestation-pop+jwt", {"aud": aud, "jti": "j-1", "iat": now,
            "challenge": "c-2"}, instance)
      key = sign("key-attestation+jwt", {"iat": now, "exp": now + 60,
        "attested_keys": [device.as_dict(private=False)]}, attester)
      print(json.dumps({"attestation": attestation, "pop": pop("https://as.example.com"),
        "bad": pop("https://evil.example"), "key": key, "attester": attester.as_dict(private=False),
        "device": device.as_dict(private=False)}))
      """, input: ["iat": .integer(Int64(testNow.timeIntervalSince1970))])
    let attester = try JWK(json: try #require(result["attester"])).publicKey()
    let verifier = ClientAttestationVerifier(trust: .keys([attester]), clock: { testNow })
    let verified = try verifier.verify(
      attestation: try #require(result["attestation"]?.string),
      pop: try #require(result["pop"]?.string), audience: "https://as.example.com",
      clientID: "wallet-client", challenge: "c-2")
    #expect(verified.clientID == "wallet-client")
    #expect(verified.popJTI == "j-1")
    expectError(.invalidClientAttestationPoP) {
      try verifier.verify(
        attestation: try #require(result["attestation"]?.string),
        pop: try #require(result["bad"]?.string), audience: "https://as.example.com",
        clientID: nil, challenge: "c-2")
    }
    let keys = try KeyAttestationVerifier(trust: .keys([attester]), clock: { testNow })
      .verify(try #require(result["key"]?.string))
    #expect(keys.attestedKeys == [try JWK(json: try #require(result["device"]))])
  }
}
