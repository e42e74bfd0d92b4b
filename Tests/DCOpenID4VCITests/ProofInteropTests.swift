import DCCrypto
import DCJOSE
import DCJSON
import DCOpenID4VCI
import DCOpenID4VCITestSupport
import DCTestSupport
import Foundation
import Testing

/// DPoP and key proofs against joserfc and jwcrypto, implementations we did not write.
@Suite("OpenID4VCI proofs interop (Python peers)")
struct ProofInteropTests {
  static let prelude = """
    import sys, json, base64, hashlib
    from joserfc import jwt, jws
    from joserfc.jwk import ECKey
    import jwcrypto.jwk, jwcrypto.jws
    registry = jws.JWSRegistry(algorithms=["ES256"], strict_check_header=False)
    def b64(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    def both_verify(token):
        # joserfc and jwcrypto each check the signature with the key in the jwk header.
        header = json.loads(base64.urlsafe_b64decode(token.split(".")[0] + "=="))
        decoded = jwt.decode(token, ECKey.import_key(header["jwk"]), algorithms=["ES256"], registry=registry)
        key = jwcrypto.jwk.JWK(**header["jwk"])
        signed = jwcrypto.jws.JWS()
        signed.deserialize(token)
        signed.verify(key, alg="ES256")
        assert json.loads(signed.payload) == decoded.claims
        return {"header": decoded.header, "claims": decoded.claims, "thumbprint": key.thumbprint()}
    data = json.loads(sys.stdin.read())

    """

  static func run(_ body: String, input: JSONValue) throws -> JSONValue {
    let output = try PythonPeer.run(prelude + body, input: input.serialized())
    return try JSONValue(parsing: output.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  @Test("joserfc and jwcrypto verify our DPoP proof; the thumbprint and ath agree", .pythonPeers)
  func ourDPoPInPython() throws {
    try PythonPeer.require("ourDPoPInPython")
    let key = try ECPrivateKey(curve: .p256)
    let proof = try DPoP.proof(
      signer: key, method: "POST", uri: "https://rs.example.com/credential?a=b#c",
      issuedAt: testNow, nonce: "server-nonce", accessToken: "at-123")
    let result = try Self.run(
      """
      out = both_verify(data["proof"])
      out["ath"] = b64(hashlib.sha256(data["token"].encode()).digest())
      print(json.dumps(out))
      """, input: ["proof": .string(proof), "token": "at-123"])
    #expect(result["header"]?["typ"] == "dpop+jwt")
    #expect(result["claims"]?["htu"] == "https://rs.example.com/credential")
    #expect(result["claims"]?["htm"] == "POST")
    #expect(result["claims"]?["nonce"] == "server-nonce")
    #expect(result["claims"]?["ath"] == result["ath"])
    let verifier = DPoPVerifier(replayStore: InMemoryDPoPReplayStore(), clock: { testNow })
    let verified = try verifier.verify(
      proof: proof, method: "POST", uri: "https://rs.example.com/credential",
      nonceCheck: { $0 == "server-nonce" }, accessToken: "at-123")
    #expect(result["thumbprint"]?.string == verified.thumbprint)
  }

  @Test("We verify joserfc's DPoP proof and bind to the thumbprint jwcrypto computes", .pythonPeers)
  func pythonDPoPInOurs() throws {
    try PythonPeer.require("pythonDPoPInOurs")
    let result = try Self.run(
      """
      key = ECKey.generate_key("P-256")
      header = {"typ": "dpop+jwt", "alg": "ES256", "jwk": key.as_dict(private=False)}
      claims = {"jti": b64(hashlib.sha256(b"jti").digest()[:16]), "htm": "GET",
                "htu": "https://rs.example.com/credential", "iat": data["iat"],
                "nonce": "n-2", "ath": b64(hashlib.sha256(b"at-456").digest())}
      token = jwt.encode(header, claims, key, algorithms=["ES256"], registry=registry)
      thumbprint = jwcrypto.jwk.JWK(**header["jwk"]).thumbprint()
      print(json.dumps({"proof": token, "thumbprint": thumbprint}))
      """, input: ["iat": .integer(Int64(testNow.timeIntervalSince1970))])
    let proof = try #require(result["proof"]?.string)
    let verifier = DPoPVerifier(replayStore: InMemoryDPoPReplayStore(), clock: { testNow })
    // Checks the Python proof must fail: wrong method, and the ath of another token.
    expectError(.dpopMethodMismatch) {
      try verifier.verify(proof: proof, method: "POST", uri: "https://rs.example.com/credential")
    }
    expectError(.dpopAccessTokenHash) {
      try verifier.verify(
        proof: proof, method: "GET", uri: "https://rs.example.com/credential", accessToken: "x")
    }
    let verified = try verifier.verify(
      proof: proof, method: "GET", uri: "https://RS.example.com:443/credential?q=1",
      nonceCheck: { $0 == "n-2" }, accessToken: "at-456",
      boundThumbprint: try #require(result["thumbprint"]?.string))
    #expect(verified.thumbprint == result["thumbprint"]?.string)
  }

  @Test("joserfc and jwcrypto verify our batch of key proofs", .pythonPeers)
  func ourKeyProofsInPython() throws {
    try PythonPeer.require("ourKeyProofsInPython")
    let keys = try (0..<3).map { _ in try ECPrivateKey(curve: .p256) }
    let proofs = try KeyProof.proofs(
      signers: keys, credentialIssuer: "https://issuer.example.com", nonce: "c-9",
      clientID: nil, issuedAt: testNow)
    let result = try Self.run(
      """
      print(json.dumps([both_verify(p) for p in data["proofs"]]))
      """, input: ["proofs": .array(proofs.map { .string($0) })])
    let entries = try #require(result.array)
    #expect(entries.count == 3)
    for (entry, key) in zip(entries, keys) {
      #expect(entry["header"]?["typ"] == "openid4vci-proof+jwt")
      #expect(entry["claims"]?["aud"] == "https://issuer.example.com")
      #expect(entry["claims"]?["nonce"] == "c-9")
      #expect(entry["claims"]?["iss"] == nil)
      #expect(entry["thumbprint"]?.string == JWK(publicKey: key.publicKey).thumbprintBase64URL)
    }
  }

  @Test("We verify joserfc's key proof and return its key; a wrong aud is refused", .pythonPeers)
  func pythonKeyProofInOurs() throws {
    try PythonPeer.require("pythonKeyProofInOurs")
    let result = try Self.run(
      """
      key = ECKey.generate_key("P-256")
      header = {"typ": "openid4vci-proof+jwt", "alg": "ES256", "jwk": key.as_dict(private=False)}
      def make(aud):
          claims = {"iss": "wallet-client", "aud": aud, "iat": data["iat"], "nonce": "c-7"}
          return jwt.encode(header, claims, key, algorithms=["ES256"], registry=registry)
      print(json.dumps({"good": make("https://issuer.example.com"), "bad": make("https://evil.example.com"), "jwk": header["jwk"]}))
      """, input: ["iat": .integer(Int64(testNow.timeIntervalSince1970))])
    let verifier = KeyProofVerifier(
      credentialIssuer: "https://issuer.example.com", clock: { testNow })
    let verified = try verifier.verify(
      try #require(result["good"]?.string), clientID: "wallet-client",
      nonceCheck: { $0 == "c-7" })
    #expect(verified.key == (try JWK(json: try #require(result["jwk"]))))
    expectError(.proofAudience) {
      try verifier.verify(
        try #require(result["bad"]?.string), clientID: "wallet-client", nonceCheck: nil)
    }
  }
}
