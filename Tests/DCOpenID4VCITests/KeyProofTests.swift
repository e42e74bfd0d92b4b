import DCCrypto
import DCJOSE
import DCJSON
import DCOpenID4VCI
import DCOpenID4VCITestSupport
import DCTestSupport
import Foundation
import Testing

@Suite("Key proofs (OpenID4VCI 1.0 §8.2.1.1, Appendix F.1)")
struct KeyProofTests {
  static let issuer = "https://issuer.example.com"
  let key: ECPrivateKey
  let verifier = KeyProofVerifier(credentialIssuer: Self.issuer, clock: { testNow })

  init() throws { key = try ECPrivateKey(curve: .p256) }

  @Test("A proof has typ, alg, jwk, aud, iat, nonce, and iss only with a client_id")
  func create() throws {
    let proof = try KeyProof.proof(
      signer: key, credentialIssuer: Self.issuer, nonce: "c-1", clientID: "wallet",
      issuedAt: testNow)
    let (header, claims) = try decodeJWT(proof)
    #expect(header["typ"] == "openid4vci-proof+jwt")
    #expect(header["alg"] == "ES256")
    #expect(try JWK(json: try #require(header["jwk"])) == JWK(publicKey: key.publicKey))
    #expect(claims["aud"]?.string == Self.issuer)
    #expect(claims["iss"] == "wallet")
    #expect(claims["nonce"] == "c-1")
    #expect(claims["iat"]?.int == Int(testNow.timeIntervalSince1970))
    let verified = try verifier.verify(proof, clientID: "wallet", nonceCheck: { $0 == "c-1" })
    #expect(try verified.key.publicKey() == key.publicKey)
    // §F.1: after anonymous pre-authorized access, no iss.
    let anonymous = try KeyProof.proof(
      signer: key, credentialIssuer: Self.issuer, nonce: "c-1", clientID: nil, issuedAt: testNow)
    #expect(try decodeJWT(anonymous).claims["iss"] == nil)
    _ = try verifier.verify(anonymous, clientID: nil, nonceCheck: { $0 == "c-1" })
  }

  @Test("Each check refuses its own failure with its own code")
  func negatives() throws {
    let (header, claims) = try decodeJWT(
      KeyProof.proof(
        signer: key, credentialIssuer: Self.issuer, nonce: "c-1", clientID: "wallet",
        issuedAt: testNow))
    func sign(_ h: JSONValue, _ c: JSONValue, with signer: ECPrivateKey? = nil) throws -> String {
      try rawJWS(header: h, claims: c, key: signer ?? key)
    }
    func check(
      _ code: OpenID4VCIErrorCode, _ proof: String, clientID: String? = "wallet",
      nonceCheck: (@Sendable (String) -> Bool)? = { $0 == "c-1" },
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      expectError(code, sourceLocation: sourceLocation) {
        try verifier.verify(proof, clientID: clientID, nonceCheck: nonceCheck)
      }
    }
    _ = try verifier.verify(
      try sign(header, claims), clientID: "wallet", nonceCheck: { $0 == "c-1" })

    check(.proofMalformed, "x.y")
    check(.proofType, try sign(setting(header, "typ", "dpop+jwt"), claims))
    check(.proofType, try sign(setting(header, "typ", nil), claims))
    let p384 = try ECPrivateKey(curve: .p384)
    check(
      .proofAlgorithm,
      try sign(
        setting(setting(header, "alg", "ES384"), "jwk", JWK(publicKey: p384.publicKey).json),
        claims, with: p384))
    check(.proofKey, try sign(setting(header, "jwk", nil), claims))
    check(.proofKey, try sign(setting(header, "kid", "k-1"), claims))
    check(.proofKey, try sign(setting(header, "jwk", JWK(privateKey: key).json), claims))
    check(.proofKey, try sign(setting(header, "key_attestation", "a.b.c"), claims))
    let other = try ECPrivateKey(curve: .p256)
    check(.proofSignature, try sign(header, claims, with: other))
    check(.proofMalformed, try sign(header, setting(claims, "iat", nil)))
    check(.proofMalformed, try sign(header, setting(claims, "aud", nil)))
    check(.proofAudience, try sign(header, setting(claims, "aud", "https://other.example.com")))
    check(.proofAudience, try sign(header, setting(claims, "aud", [.string(Self.issuer), "x"])))
    check(.proofIssuer, try sign(header, claims), clientID: nil)
    check(.proofIssuer, try sign(header, setting(claims, "iss", "other")))
    let t = Int64(testNow.timeIntervalSince1970)
    check(.proofIssuedAt, try sign(header, setting(claims, "iat", .integer(t - 301))))
    check(.proofIssuedAt, try sign(header, setting(claims, "iat", .integer(t + 61))))
    check(.invalidNonce, try sign(header, claims), nonceCheck: { _ in false })
    check(.invalidNonce, try sign(header, setting(claims, "nonce", nil)))
    // Without a nonce endpoint the nonce is not checked.
    _ = try verifier.verify(
      try sign(header, setting(claims, "nonce", nil)), clientID: "wallet", nonceCheck: nil)
  }

  @Test("Batch: N proofs for N keys, one nonce check; duplicates, mixed nonces, excess refused")
  func batch() throws {
    let keys = try (0..<4).map { _ in try ECPrivateKey(curve: .p256) }
    let proofs = try KeyProof.proofs(
      signers: keys, credentialIssuer: Self.issuer, nonce: "c-1", clientID: nil, issuedAt: testNow)
    let checks = Counter()
    let verified = try verifier.verifyBatch(
      proofs, clientID: nil, nonceCheck: { checks.increment() && $0 == "c-1" }, maxCount: 4)
    #expect(try verified.map { try $0.key.publicKey() } == keys.map(\.publicKey))
    #expect(checks.value == 1)
    expectError(.proofBatch) {
      try verifier.verifyBatch(proofs, clientID: nil, nonceCheck: nil, maxCount: 3)
    }
    expectError(.proofBatch) {
      try verifier.verifyBatch([], clientID: nil, nonceCheck: nil, maxCount: 3)
    }
    expectError(.proofBatch) {
      try verifier.verifyBatch(
        [proofs[0], proofs[1], proofs[0]], clientID: nil, nonceCheck: nil, maxCount: 4)
    }
    let otherNonce = try KeyProof.proof(
      signer: try ECPrivateKey(curve: .p256), credentialIssuer: Self.issuer, nonce: "c-2",
      clientID: nil, issuedAt: testNow)
    expectError(.proofBatch) {
      try verifier.verifyBatch(
        [proofs[0], otherNonce], clientID: nil, nonceCheck: nil, maxCount: 4)
    }
    expectError(.invalidNonce) {
      try verifier.verifyBatch(proofs, clientID: nil, nonceCheck: { _ in false }, maxCount: 4)
    }
  }

  @Test("key_attestation: the proof is signed by an attested key, which is returned")
  func keyAttestation() throws {
    let attestation = "eyJ0eXAiOiJrZXktYXR0ZXN0YXRpb24rand0In0.e30.sig"
    let attested = [
      JWK(publicKey: try ECPrivateKey(curve: .p256).publicKey), JWK(publicKey: key.publicKey),
    ]
    let accepting = KeyProofVerifier(
      credentialIssuer: Self.issuer, clock: { testNow },
      keyAttestationVerifier: { text in
        guard text == attestation else { throw OpenID4VCIError(.proofKey, "unknown attestation") }
        return attested
      })
    let proof = try KeyProof.proof(
      signer: key, credentialIssuer: Self.issuer, nonce: "c-1", clientID: nil, issuedAt: testNow,
      keyHeader: .keyAttestation(attestation, kid: "1"))
    let (header, _) = try decodeJWT(proof)
    #expect(header["key_attestation"]?.string == attestation)
    #expect(header["jwk"] == nil)
    let verified = try accepting.verify(proof, clientID: nil, nonceCheck: { $0 == "c-1" })
    #expect(try verified.key.publicKey() == key.publicKey)
    #expect(verified.keyAttestation == attestation)
    // A key that is not attested does not verify.
    let stranger = try KeyProof.proof(
      signer: try ECPrivateKey(curve: .p256), credentialIssuer: Self.issuer, nonce: "c-1",
      clientID: nil, issuedAt: testNow, keyHeader: .keyAttestation(attestation))
    expectError(.proofSignature) { try accepting.verify(stranger, clientID: nil, nonceCheck: nil) }
    // An attestation the wallet-provider check refuses.
    let forged = try KeyProof.proof(
      signer: key, credentialIssuer: Self.issuer, nonce: "c-1", clientID: nil, issuedAt: testNow,
      keyHeader: .keyAttestation("forged.a.b"))
    expectError(.proofKey) { try accepting.verify(forged, clientID: nil, nonceCheck: nil) }
    // A jwk beside the attestation must be an attested key.
    let outsider = try ECPrivateKey(curve: .p256)
    let withOutsider = try rawJWS(
      header: [
        "typ": "openid4vci-proof+jwt", "alg": "ES256", "key_attestation": .string(attestation),
        "jwk": JWK(publicKey: outsider.publicKey).json,
      ],
      claims: ["aud": .string(Self.issuer), "iat": .integer(Int64(testNow.timeIntervalSince1970))],
      key: outsider)
    expectError(.proofKey) { try accepting.verify(withOutsider, clientID: nil, nonceCheck: nil) }
    // key_attestation with x5c names the key twice.
    let (attestedHeader, attestedClaims) = try decodeJWT(proof)
    let withX5c = try rawJWS(
      header: setting(attestedHeader, "x5c", ["AAAA"]), claims: attestedClaims, key: key)
    expectError(.proofKey) { try accepting.verify(withX5c, clientID: nil, nonceCheck: nil) }
    // No attestation verifier configured.
    expectError(.proofKey) { try verifier.verify(proof, clientID: nil, nonceCheck: nil) }
  }
}

/// Counts calls from a `@Sendable` closure.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  var value: Int { lock.withLock { count } }
  func increment() -> Bool {
    lock.withLock { count += 1 }
    return true
  }
}
