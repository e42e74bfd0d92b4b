import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCOpenID4VCI
import DCOpenID4VCITestSupport
import DCTestSupport
import Foundation
import Testing

@Suite("DPoP proofs (RFC 9449)")
struct DPoPTests {
  static let uri = "https://as.example.com/token"
  let key: ECPrivateKey
  let store = InMemoryDPoPReplayStore(capacity: 100)
  var verifier: DPoPVerifier

  init() throws {
    key = try ECPrivateKey(curve: .p256)
    verifier = DPoPVerifier(
      replayStore: store, maxAge: 300, leeway: 60, clock: { testNow })
  }

  /// A valid proof's header and claims, for tests to alter and re-sign.
  func parts(nonce: String? = nil, accessToken: String? = nil) throws -> (JSONValue, JSONValue) {
    try decodeJWT(
      DPoP.proof(
        signer: key, method: "POST", uri: Self.uri, issuedAt: testNow, nonce: nonce,
        accessToken: accessToken))
  }

  @Test("A proof has typ, alg ES256, the public jwk, jti, htm, htu without query, iat, nonce, ath")
  func create() throws {
    let proof = try DPoP.proof(
      signer: key, method: "GET", uri: "https://rs.example.com/credential?x=1#frag",
      issuedAt: testNow, nonce: "n-1", accessToken: "token-1")
    let (header, claims) = try decodeJWT(proof)
    #expect(header["typ"] == "dpop+jwt")
    #expect(header["alg"] == "ES256")
    #expect(try JWK(json: try #require(header["jwk"])) == JWK(publicKey: key.publicKey))
    #expect(header["jwk"]?["d"] == nil)
    #expect(claims["htm"] == "GET")
    #expect(claims["htu"] == "https://rs.example.com/credential")
    #expect(claims["iat"]?.int == Int(testNow.timeIntervalSince1970))
    #expect(claims["nonce"] == "n-1")
    #expect(claims["ath"]?.string == Base64URL.encode(SHA256.hash(data: Array("token-1".utf8))))
    #expect((try Base64URL.decode(try #require(claims["jti"]?.string))).count == 16)
    let verified = try verifier.verify(
      proof: proof, method: "GET", uri: "https://rs.example.com/credential?y=2",
      nonceCheck: { $0 == "n-1" }, accessToken: "token-1",
      boundThumbprint: JWK(publicKey: key.publicKey).thumbprintBase64URL)
    #expect(verified.thumbprint == JWK(publicKey: key.publicKey).thumbprintBase64URL)
    #expect(verified.nonce == "n-1")
  }

  @Test("RFC 9449 §7.1 example: ath of the example access token")
  func athExample() {
    // RFC 9449 §7.1, Figure 12's token and its ath in Figure 13.
    #expect(
      DPoP.accessTokenHash("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU")
        == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo")
  }

  @Test("htu matches after RFC 3986 normalisation, and other URIs do not")
  func normalisation() throws {
    #expect(
      DPoP.normalizedURI("HTTPS://AS.Example.COM:443/a/./b/../token?q#f")
        == "https://as.example.com/a/token")
    #expect(DPoP.normalizedURI("http://h:80") == "http://h/")
    #expect(DPoP.normalizedURI("https://h/%7euser/%2f%2F") == "https://h/~user/%2F%2F")
    #expect(DPoP.normalizedURI("https://h:8443/x") == "https://h:8443/x")
    #expect(DPoP.normalizedURI("ftp://h/x") == nil)
    #expect(DPoP.normalizedURI("/relative") == nil)
    let proof = try DPoP.proof(signer: key, method: "POST", uri: Self.uri, issuedAt: testNow)
    _ = try verifier.verify(proof: proof, method: "POST", uri: "https://AS.example.com:443/token")
  }

  @Test("Each check refuses its own failure with its own code")
  func negatives() throws {
    let (header, claims) = try parts()
    func sign(_ h: JSONValue, _ c: JSONValue, with signer: ECPrivateKey? = nil) throws -> String {
      try rawJWS(header: h, claims: c, key: signer ?? key)
    }
    func check(
      _ code: OpenID4VCIErrorCode, _ proof: String, method: String = "POST",
      uri: String = Self.uri, nonceCheck: (@Sendable (String) -> Bool)? = nil,
      accessToken: String? = nil, bound: String? = nil,
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      expectError(code, sourceLocation: sourceLocation) {
        try verifier.verify(
          proof: proof, method: method, uri: uri, nonceCheck: nonceCheck,
          accessToken: accessToken, boundThumbprint: bound)
      }
    }
    // The unaltered proof passes (so each failure below is the altered check's).
    _ = try verifier.verify(proof: try sign(header, claims), method: "POST", uri: Self.uri)

    check(.dpopMalformed, "a.b")
    check(.dpopType, try sign(setting(header, "typ", "JWT"), claims))
    check(.dpopType, try sign(setting(header, "typ", nil), claims))
    let p384 = try ECPrivateKey(curve: .p384)
    check(
      .dpopAlgorithm,
      try sign(
        setting(setting(header, "alg", "ES384"), "jwk", JWK(publicKey: p384.publicKey).json),
        claims, with: p384))
    check(.dpopAlgorithm, try sign(setting(header, "alg", "none"), claims))
    check(.dpopKey, try sign(setting(header, "jwk", nil), claims))
    check(.dpopKey, try sign(setting(header, "jwk", JWK(privateKey: key).json), claims))
    let other = try ECPrivateKey(curve: .p256)
    check(.dpopSignature, try sign(header, claims, with: other))
    check(.dpopMalformed, try sign(header, setting(claims, "jti", nil)))
    check(.dpopMalformed, try sign(header, setting(claims, "htm", nil)))
    check(.dpopMalformed, try sign(header, setting(claims, "htu", nil)))
    check(.dpopMalformed, try sign(header, setting(claims, "iat", nil)))
    check(.dpopMethodMismatch, try sign(header, claims), method: "GET")
    check(.dpopURIMismatch, try sign(header, claims), uri: "https://as.example.com/par")
    check(.dpopURIMismatch, try sign(header, claims), uri: "https://other.example.com/token")
    check(.useDPoPNonce, try sign(header, claims), nonceCheck: { _ in true })
    check(
      .useDPoPNonce, try sign(header, setting(claims, "nonce", "stale")),
      nonceCheck: { $0 == "fresh" })
    let t = Int64(testNow.timeIntervalSince1970)
    check(.dpopIssuedAt, try sign(header, setting(claims, "iat", .integer(t - 301))))
    check(.dpopIssuedAt, try sign(header, setting(claims, "iat", .integer(t + 61))))
    check(.dpopAccessTokenHash, try sign(header, claims), accessToken: "token")
    check(
      .dpopAccessTokenHash,
      try sign(header, setting(claims, "ath", .string(DPoP.accessTokenHash("other")))),
      accessToken: "token")
    check(
      .dpopKeyBinding, try sign(header, claims),
      bound: JWK(publicKey: other.publicKey).thumbprintBase64URL)
  }

  @Test("A window edge is accepted: iat exactly maxAge old and exactly leeway ahead")
  func windowEdges() throws {
    for offset in [-300.0, 60.0] {
      let proof = try DPoP.proof(
        signer: key, method: "POST", uri: Self.uri, issuedAt: testNow.addingTimeInterval(offset))
      _ = try verifier.verify(proof: proof, method: "POST", uri: Self.uri)
    }
  }

  @Test("A replayed proof is refused; the same jti from another key is not a replay")
  func replay() throws {
    let proof = try DPoP.proof(signer: key, method: "POST", uri: Self.uri, issuedAt: testNow)
    _ = try verifier.verify(proof: proof, method: "POST", uri: Self.uri)
    expectError(.dpopReplay) { try verifier.verify(proof: proof, method: "POST", uri: Self.uri) }
    let other = try ECPrivateKey(curve: .p256)
    let fixed = FixedRandom(octets: Array(repeating: 7, count: 16))
    _ = try verifier.verify(
      proof: try DPoP.proof(
        signer: key, method: "POST", uri: Self.uri, issuedAt: testNow, random: fixed),
      method: "POST", uri: Self.uri)
    _ = try verifier.verify(
      proof: try DPoP.proof(
        signer: other, method: "POST", uri: Self.uri, issuedAt: testNow, random: fixed),
      method: "POST", uri: Self.uri)
  }

  @Test("The in-memory replay store stays within capacity and forgets expired entries")
  func storeBounds() {
    let store = InMemoryDPoPReplayStore(capacity: 3)
    let later = testNow.addingTimeInterval(100)
    for i in 0..<10 {
      #expect(store.insertIfAbsent("k\(i)", expiry: later, now: testNow))
      #expect(store.count <= 3)
    }
    #expect(!store.insertIfAbsent("k9", expiry: later, now: testNow))
    // Expired: accepted again.
    #expect(store.insertIfAbsent("k9", expiry: later.addingTimeInterval(100), now: later))
  }

  @Test("Proof creation refuses a URI that is not absolute http(s)")
  func badURI() {
    expectError(.dpopMalformed) { try DPoP.proof(signer: key, method: "POST", uri: "/token") }
  }
}
