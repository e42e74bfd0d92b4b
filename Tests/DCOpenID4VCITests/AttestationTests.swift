import DCCrypto
import DCJOSE
import DCJSON
import DCOpenID4VCI
import DCOpenID4VCITestSupport
import DCTestSupport
import DCX509
import Foundation
import Testing

/// Client (wallet) attestations (draft-ietf-oauth-attestation-based-client-auth; OpenID4VCI 1.0
/// Appendix E) and key attestations (Appendix D).
@Suite("OpenID4VCI attestations")
struct AttestationTests {
  static func vectorText(_ name: String) throws -> String {
    String(decoding: try VectorFile.bytes(name, ext: "txt", in: .module), as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  struct Fixture {
    let attester = try! ECPrivateKey(curve: .p256)
    let instance = try! ECPrivateKey(curve: .p256)
    let audience = "https://as.example.com"

    func attestation(
      clientID: String = "https://wallet.example.org",
      expiresAt: Date = testNow.addingTimeInterval(3600),
      signer: (any Signer)? = nil, instanceKey: ECPublicKey? = nil
    ) throws -> String {
      try ClientAttestation.attestation(
        signer: signer ?? attester, keyHeader: .kid("11"), issuer: "https://provider.example",
        clientID: clientID, instanceKey: instanceKey ?? instance.publicKey, issuedAt: testNow,
        expiresAt: expiresAt, additionalClaims: [("wallet_name", "Test Wallet")])
    }

    func pop(
      audience: String? = nil, issuedAt: Date = testNow, challenge: String? = "ch-1",
      signer: (any Signer)? = nil
    ) throws -> String {
      try ClientAttestation.proofOfPossession(
        signer: signer ?? instance, audience: audience ?? self.audience, issuedAt: issuedAt,
        challenge: challenge)
    }

    func verifier(replay: (any DPoPReplayStore)? = nil) -> ClientAttestationVerifier {
      ClientAttestationVerifier(
        trust: .keys([attester.publicKey]), clock: { testNow }, replayStore: replay)
    }
  }

  @Test("Our attestation and PoP verify; the result names the client and the instance key")
  func roundTrip() throws {
    let fixture = Fixture()
    let attestation = try fixture.attestation()
    let (header, claims) = try decodeJWT(attestation)
    #expect(header["typ"] == "oauth-client-attestation+jwt")
    #expect(header["kid"] == "11")
    #expect(claims["cnf"]?["jwk"] == JWK(publicKey: fixture.instance.publicKey).json)
    let verified = try fixture.verifier().verify(
      attestation: attestation, pop: try fixture.pop(), audience: fixture.audience,
      clientID: "https://wallet.example.org", challenge: "ch-1")
    #expect(verified.clientID == "https://wallet.example.org")
    #expect(verified.claims["wallet_name"] == "Test Wallet")
    #expect(verified.instanceKey == JWK(publicKey: fixture.instance.publicKey))
    let (popHeader, popClaims) = try decodeJWT(try fixture.pop())
    #expect(popHeader["typ"] == "oauth-client-attestation-pop+jwt")
    #expect(popHeader["jwk"] == nil)
    #expect(popClaims["jti"]?.string?.count == 22)
  }

  @Test("Every attestation and PoP check fails when broken")
  func mutations() throws {
    let fixture = Fixture()
    let verifier = fixture.verifier()
    let good = try fixture.attestation()
    let pop = try fixture.pop()
    func check(
      _ code: OpenID4VCIErrorCode, attestation: String? = nil, pop popValue: String? = nil,
      clientID: String? = nil, challenge: String? = "ch-1",
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      expectError(code, sourceLocation: sourceLocation) {
        try verifier.verify(
          attestation: attestation ?? good, pop: popValue ?? pop, audience: fixture.audience,
          clientID: clientID, challenge: challenge)
      }
    }
    let other = try ECPrivateKey(curve: .p256)
    // §7.1 attestation.
    check(.invalidClientAttestation, attestation: try fixture.attestation(signer: other))
    check(
      .invalidClientAttestation,
      attestation: try fixture.attestation(expiresAt: testNow.addingTimeInterval(-3600)))
    check(.invalidClientAttestation, clientID: "https://other.example")
    check(.invalidClientAttestation, attestation: "x.y")
    let claims = try decodeJWT(good).claims
    let header: JSONValue = ["typ": "oauth-client-attestation+jwt", "alg": "ES256"]
    for mutated in [
      setting(claims, "sub", nil), setting(claims, "exp", nil), setting(claims, "cnf", nil),
      setting(claims, "cnf", ["jwk": JWK(privateKey: fixture.instance).json]),
      setting(claims, "nbf", .integer(Int64(testNow.timeIntervalSince1970) + 3600)),
      setting(claims, "iat", .integer(Int64(testNow.timeIntervalSince1970) + 3600)),
    ] {
      check(
        .invalidClientAttestation,
        attestation: try rawJWS(header: header, claims: mutated, key: fixture.attester))
    }
    check(
      .invalidClientAttestation,
      attestation: try rawJWS(
        header: ["typ": "JWT", "alg": "ES256"], claims: claims, key: fixture.attester))
    // §7.2 PoP.
    check(.invalidClientAttestationPoP, pop: try fixture.pop(signer: other))
    check(.invalidClientAttestationPoP, pop: try fixture.pop(audience: "https://other.example"))
    check(
      .invalidClientAttestationPoP,
      pop: try fixture.pop(issuedAt: testNow.addingTimeInterval(-3600)))
    check(
      .invalidClientAttestationPoP, pop: try fixture.pop(issuedAt: testNow.addingTimeInterval(3600))
    )
    check(.invalidClientAttestationPoP, pop: try fixture.pop(challenge: nil))
    check(.invalidClientAttestationPoP, pop: try fixture.pop(challenge: "ch-2"))
    let popClaims = try decodeJWT(pop).claims
    let popHeader: JSONValue = ["typ": "oauth-client-attestation-pop+jwt", "alg": "ES256"]
    for mutated in [
      setting(popClaims, "jti", nil), setting(popClaims, "iat", nil),
      setting(popClaims, "aud", nil),
      // Found by fuzzing: an iat far beyond Int's range once trapped converting its age.
      setting(popClaims, "iat", .number(8.8e300)), setting(popClaims, "iat", .number(-8.8e300)),
    ] {
      check(
        .invalidClientAttestationPoP,
        pop: try rawJWS(header: popHeader, claims: mutated, key: fixture.instance))
    }
    check(
      .invalidClientAttestationPoP,
      pop: try rawJWS(
        header: ["typ": "dpop+jwt", "alg": "ES256"], claims: popClaims, key: fixture.instance))
  }

  @Test("A replayed PoP jti fails when the verifier keeps a replay store")
  func replay() throws {
    let fixture = Fixture()
    let verifier = fixture.verifier(replay: InMemoryDPoPReplayStore())
    let attestation = try fixture.attestation()
    let pop = try fixture.pop()
    _ = try verifier.verify(
      attestation: attestation, pop: pop, audience: fixture.audience, clientID: nil,
      challenge: "ch-1")
    expectError(.invalidClientAttestationPoP) {
      try verifier.verify(
        attestation: attestation, pop: pop, audience: fixture.audience, clientID: nil,
        challenge: "ch-1")
    }
  }

  @Test("The draft's PoP example verifies with the cnf key of its attestation example")
  func draftExample() throws {
    let attestation = try Self.vectorText("client_attestation_draft.jwt")
    let pop = try Self.vectorText("client_attestation_pop_draft.jwt")
    let cnf = try JWK(json: try #require(decodeJWT(attestation).claims["cnf"]?["jwk"]))
    let verifier = ClientAttestationVerifier(
      trust: .keys([]), clock: { Date(timeIntervalSince1970: 1_772_487_600) })
    let jti = try verifier.verifyProofOfPossession(
      pop, instanceKey: cnf, audience: "https://as.example.com",
      challenge: "5c1a9e10-29ff-4c2b-ae73-57c0957c09c4")
    #expect(jti == "d25d00ab-552b-46fc-ae19-98f440f25064")
    expectError(.invalidClientAttestationPoP) {
      try verifier.verifyProofOfPossession(
        pop, instanceKey: cnf, audience: "https://as.example.com", challenge: "other")
    }
    // Its attestation is signed by a key the draft does not publish.
    expectError(.invalidClientAttestation) {
      try verifier.verifyAttestation(attestation, clientID: nil)
    }
  }

  @Test("OpenID4VCI 1.0 Appendix G's Wallet Attestation verifies through its x5c; expired later")
  func walletAttestationExample() throws {
    let attestation = try Self.vectorText("wallet_attestation.jwt")
    let x5c = try #require(try CompactJWS(attestation).x5c)
    let anchor = try Certificate(derEncoded: x5c[0])
    let during = Date(timeIntervalSince1970: 1_755_050_000)
    let verifier = ClientAttestationVerifier(trust: .certificates([anchor]), clock: { during })
    let verified = try verifier.verifyAttestation(
      attestation, clientID: "https://wallet.example.com")
    #expect(verified.issuer == "https://wallet-provider.example.com")
    #expect(verified.claims["wallet_name"] == "Wallet Solution X by Wonderland State Department")
    let after = ClientAttestationVerifier(
      trust: .certificates([anchor]), clock: { Date(timeIntervalSince1970: 1_755_200_000) })
    expectError(.invalidClientAttestation) {
      try after.verifyAttestation(attestation, clientID: nil)
    }
    let before = ClientAttestationVerifier(
      trust: .certificates([anchor]), clock: { Date(timeIntervalSince1970: 1_755_000_000) })
    expectError(.invalidClientAttestation) {
      try before.verifyAttestation(attestation, clientID: nil)
    }
    let untrusted = ClientAttestationVerifier(trust: .certificates([]), clock: { during })
    expectError(.invalidClientAttestation) {
      try untrusted.verifyAttestation(attestation, clientID: nil)
    }
  }

  // MARK: Key attestation (Appendix D)

  @Test("A key attestation verifies; key proofs carrying it verify at the issuer, as a batch too")
  func keyAttestation() throws {
    let provider = try ECPrivateKey(curve: .p256)
    let keys = try (0..<3).map { _ in try ECPrivateKey(curve: .p256) }
    let attestation = try KeyAttestation.attestation(
      signer: provider, keyHeader: .kid("kp-1"), issuer: "https://provider.example",
      attestedKeys: keys.map(\.publicKey), issuedAt: testNow,
      expiresAt: testNow.addingTimeInterval(3600),
      keyStorage: [KeyAttestation.iso18045Moderate],
      userAuthentication: [KeyAttestation.iso18045Moderate],
      nonce: "n-1")
    let verifier = KeyAttestationVerifier(
      trust: .keys([provider.publicKey]), clock: { testNow }, nonceCheck: { $0 == "n-1" })
    let verified = try verifier.verify(attestation)
    #expect(verified.attestedKeys == keys.map { JWK(publicKey: $0.publicKey) })
    #expect(verified.keyStorage == ["iso_18045_moderate"])
    #expect(try decodeJWT(attestation).header["typ"] == "key-attestation+jwt")
    let proofs = try KeyProof.proofs(
      signers: keys, credentialIssuer: "https://issuer.example", nonce: "c", clientID: nil,
      issuedAt: testNow, keyAttestation: attestation)
    #expect(try decodeJWT(proofs[0]).header["key_attestation"]?.string == attestation)
    #expect(try decodeJWT(proofs[0]).header["jwk"] == nil)
    let proofVerifier = KeyProofVerifier(
      credentialIssuer: "https://issuer.example", clock: { testNow },
      keyAttestationVerifier: { try verifier.verifyKeys($0) })
    let checked = try proofVerifier.verifyBatch(
      proofs, clientID: nil, nonceCheck: { $0 == "c" }, maxCount: 3)
    #expect(checked.map(\.key) == keys.map { JWK(publicKey: $0.publicKey) })
  }

  @Test("Key attestation checks fail when broken")
  func keyAttestationMutations() throws {
    let provider = try ECPrivateKey(curve: .p256)
    let key = try ECPrivateKey(curve: .p256)
    let verifier = KeyAttestationVerifier(trust: .keys([provider.publicKey]), clock: { testNow })
    let good = try KeyAttestation.attestation(
      signer: provider, keyHeader: nil, issuer: nil, attestedKeys: [key.publicKey],
      issuedAt: testNow,
      expiresAt: testNow.addingTimeInterval(60))
    _ = try verifier.verify(good)
    let claims = try decodeJWT(good).claims
    let header: JSONValue = ["typ": "key-attestation+jwt", "alg": "ES256"]
    func expectRefused(
      _ compact: String, _ verifier: KeyAttestationVerifier,
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      expectError(.invalidKeyAttestation, sourceLocation: sourceLocation) {
        try verifier.verify(compact)
      }
    }
    expectRefused(try rawJWS(header: header, claims: claims, key: key), verifier)
    expectRefused(
      try rawJWS(header: ["typ": "JWT", "alg": "ES256"], claims: claims, key: provider), verifier)
    let now = Int64(testNow.timeIntervalSince1970)
    for mutated in [
      setting(claims, "attested_keys", nil), setting(claims, "attested_keys", []),
      setting(claims, "attested_keys", [JWK(privateKey: key).json]),
      setting(claims, "attested_keys", [["kty": "EC"]]),
      setting(claims, "iat", nil), setting(claims, "iat", .integer(now + 3600)),
      setting(claims, "exp", nil), setting(claims, "exp", .integer(now - 3600)),
      setting(claims, "key_storage", []), setting(claims, "key_storage", [1]),
    ] {
      expectRefused(try rawJWS(header: header, claims: mutated, key: provider), verifier)
    }
    let nonceVerifier = KeyAttestationVerifier(
      trust: .keys([provider.publicKey]), clock: { testNow }, nonceCheck: { $0 == "fresh" })
    expectRefused(good, nonceVerifier)
    expectError(.invalidKeyAttestation) {
      try KeyAttestation.attestation(
        signer: provider, keyHeader: nil, issuer: nil, attestedKeys: [], issuedAt: testNow,
        expiresAt: testNow)
    }
  }
}

@Suite("OpenID4VCI authorization server metadata: client attestation members")
struct AttestationMetadataTests {
  @Test("token_endpoint_auth_methods_supported and challenge_endpoint are read, published, checked")
  func members() throws {
    let json: JSONValue = [
      "issuer": "https://as.example.com", "token_endpoint": "https://as.example.com/token",
      "token_endpoint_auth_methods_supported": ["attest_jwt_client_auth"],
      "challenge_endpoint": "https://as.example.com/challenge",
    ]
    let metadata = try AuthorizationServerMetadata(json: json)
    #expect(metadata.supportsClientAttestation)
    #expect(metadata.challengeEndpoint?.absoluteString == "https://as.example.com/challenge")
    #expect(try AuthorizationServerMetadata(json: metadata.json) == metadata)
    let without = try AuthorizationServerMetadata(
      json: setting(json, "token_endpoint_auth_methods_supported", ["none"]))
    #expect(!without.supportsClientAttestation)
    expectError(.invalidMetadata) {
      try AuthorizationServerMetadata(
        json: setting(json, "challenge_endpoint", "http://as.example.com/c"))
    }
    expectError(.invalidMetadata) {
      try AuthorizationServerMetadata(
        json: setting(json, "token_endpoint_auth_methods_supported", []))
    }
  }
}
