import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCTestSupport
import Testing

@Suite("JWS")
struct JWSTests {
  @Test(
    "RFC 7515 A.3 (ES256) and A.4 (ES512) and RFC 7520 §4.3 compact JWS verify with the published keys",
    arguments: ["rfc7515_a3", "rfc7515_a4", "rfc7520_4_3"])
  func publishedCompact(_ name: String) throws {
    let vector = try #require(try loadVector("jose-rfc-vectors")[name])
    let key = try JWK(json: try #require(vector["jwk"])).publicKey()
    let compact = try #require(vector["compact"]?.string)
    let jws = try CompactJWS(compact)
    try jws.verifySignature(with: key)
    #expect(jws.payload == Array(try #require(vector["payload_text"]?.string).utf8))
    // The signing input is the received text, byte for byte (RFC 7515 §5.2 step 8).
    #expect(
      jws.signingInput == Array(compact.split(separator: ".").prefix(2).joined(separator: ".").utf8)
    )
  }

  @Test("RFC 7520 §4.3 general and flattened JSON serializations verify")
  func publishedJSON() throws {
    let vector = try #require(try loadVector("jose-rfc-vectors")["rfc7520_4_3"])
    let key = try JWK(json: try #require(vector["jwk"])).publicKey()
    for form in ["general", "flattened"] {
      let jws = try JWSJSON(json: try #require(vector[form]))
      #expect(jws.signatures.count == 1)
      #expect(jws.signatures[0].algorithm == .es512)
      #expect(jws.signatures[0].keyID == "bilbo.baggins@hobbiton.example")
      try jws.signatures[0].verifySignature(with: key)
      #expect(String(decoding: jws.payload, as: UTF8.self).hasPrefix("It’s a dangerous business"))
    }
  }

  @Test(
    "Sign and verify on every curve; alg is added from the key; header fields are readable",
    arguments: EllipticCurve.allCases)
  func roundTrip(_ curve: EllipticCurve) throws {
    let key = try ECPrivateKey(curve: curve)
    let certificates: [[UInt8]] = [
      Array(repeating: 0x30, count: 700), [0x30, 0x03, 0x02, 0x01, 0x01],
    ]
    let header: JSONValue = [
      "typ": "openid4vci-proof+jwt", "kid": "k", "x5c": JWS.x5c(certificates),
      "jwk": JWK(publicKey: key.publicKey).json,
    ]
    let compact = try JWS.sign(payload: Array("hello".utf8), protectedHeader: header, signer: key)
    let jws = try CompactJWS(compact)
    #expect(jws.protectedHeader.keys.first == "alg")
    #expect(jws.algorithm == JWSAlgorithm(curve: curve))
    #expect(jws.keyID == "k")
    #expect(jws.type == "openid4vci-proof+jwt")
    #expect(jws.x5c == certificates)
    #expect(try jws.jwk?.publicKey() == key.publicKey)
    #expect(jws.signature.count == 2 * curve.coordinateByteCount)
    try jws.verifySignature(with: key.publicKey)
    let set = JWKSet(keys: [JWK(publicKey: key.publicKey, kid: "k")])
    try jws.verifySignature(with: set)
  }

  @Test("alg none, HS256 and RS256 are refused at parse time")
  func unsupportedAlgorithms() {
    for header in [
      #"{"alg":"none"}"#, #"{"alg":"HS256"}"#, #"{"alg":"RS256"}"#, #"{"alg":"es256"}"#,
    ] {
      let compact =
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array("x".utf8)) + "."
      expectJOSEError(.unsupportedAlgorithm) { try CompactJWS(compact) }
    }
  }

  @Test("alg/curve mismatch is refused when signing and verifying")
  func algorithmMismatch() throws {
    let p256 = try ECPrivateKey(curve: .p256)
    let p384 = try ECPrivateKey(curve: .p384)
    expectJOSEError(.algorithmKeyMismatch) {
      try JWS.sign(payload: [1], protectedHeader: ["alg": "ES384"], signer: p256)
    }
    let jws = try CompactJWS(try JWS.sign(payload: [1], signer: p256))
    expectJOSEError(.algorithmKeyMismatch) { try jws.verifySignature(with: p384.publicKey) }
  }

  @Test("Bad signature, wrong-length signature and tampered payload are refused")
  func badSignatures() throws {
    let key = try ECPrivateKey(curve: .p256)
    let compact = try JWS.sign(payload: Array("payload".utf8), signer: key)
    let parts = compact.split(separator: ".").map(String.init)
    var signature = try Base64URL.decode(parts[2])
    signature[10] ^= 0x01
    let flipped = try CompactJWS(
      [parts[0], parts[1], Base64URL.encode(signature)].joined(separator: "."))
    expectJOSEError(.invalidSignature) { try flipped.verifySignature(with: key.publicKey) }
    let short = try CompactJWS(
      [parts[0], parts[1], Base64URL.encode(signature.dropLast())].joined(separator: "."))
    expectJOSEError(.invalidSignature) { try short.verifySignature(with: key.publicKey) }
    let der = try ECDSASignature(rawRepresentation: try Base64URL.decode(parts[2]), curve: .p256)
      .derRepresentation
    let derJWS = try CompactJWS([parts[0], parts[1], Base64URL.encode(der)].joined(separator: "."))
    expectJOSEError(.invalidSignature) { try derJWS.verifySignature(with: key.publicKey) }
    let tampered = try CompactJWS(
      [parts[0], Base64URL.encode(Array("Payload".utf8)), parts[2]].joined(separator: "."))
    expectJOSEError(.invalidSignature) { try tampered.verifySignature(with: key.publicKey) }
    let other = try ECPrivateKey(curve: .p256)
    expectJOSEError(.invalidSignature) {
      try CompactJWS(compact).verifySignature(with: other.publicKey)
    }
  }

  @Test("Verification uses the received header bytes, not a re-encoding")
  func receivedBytes() throws {
    let key = try ECPrivateKey(curve: .p256)
    // A header with whitespace and a different member order than we would emit.
    let header = Base64URL.encode(Array(#"{ "kid" : "k",  "alg":"ES256" }"#.utf8))
    let payload = Base64URL.encode(Array("p".utf8))
    let signature = try key.signature(for: Array("\(header).\(payload)".utf8)).rawRepresentation
    let jws = try CompactJWS("\(header).\(payload).\(Base64URL.encode(signature))")
    try jws.verifySignature(with: key.publicKey)
    #expect(jws.protectedHeaderBytes == Array(#"{ "kid" : "k",  "alg":"ES256" }"#.utf8))
  }

  @Test("kid lookup in a JWK Set: a mismatched kid finds no key, a wrong key under the kid fails")
  func kidLookup() throws {
    let key = try ECPrivateKey(curve: .p256)
    let other = try ECPrivateKey(curve: .p256)
    let jws = try CompactJWS(
      try JWS.sign(payload: [1], protectedHeader: ["kid": "signer"], signer: key))
    expectJOSEError(.keyNotFound) {
      try jws.verifySignature(
        with: JWKSet(keys: [JWK(publicKey: key.publicKey, kid: "someone-else")]))
    }
    expectJOSEError(.invalidSignature) {
      try jws.verifySignature(with: JWKSet(keys: [JWK(publicKey: other.publicKey, kid: "signer")]))
    }
  }

  @Test("crit, b64:false, malformed structure and bad headers are refused")
  func malformed() throws {
    let key = try ECPrivateKey(curve: .p256)
    func token(_ header: String) throws -> String {
      let h = Base64URL.encode(Array(header.utf8))
      let p = Base64URL.encode(Array("x".utf8))
      return
        "\(h).\(p).\(Base64URL.encode(try key.signature(for: Array("\(h).\(p)".utf8)).rawRepresentation))"
    }
    expectJOSEError(.invalidHeader) {
      try CompactJWS(try token(#"{"alg":"ES256","crit":["exp"],"exp":1}"#))
    }
    expectJOSEError(.invalidHeader) {
      try CompactJWS(try token(#"{"alg":"ES256","b64":false,"crit":["b64"]}"#))
    }
    expectJOSEError(.invalidHeader) { try CompactJWS(try token(#"{"alg":"ES256","b64":false}"#)) }
    expectJOSEError(.invalidHeader) { try CompactJWS(try token(#"{"kid":"k"}"#)) }
    expectJOSEError(.invalidHeader) { try CompactJWS(try token(#"{"alg":"ES256","kid":7}"#)) }
    // x5c is standard base64, so base64url characters are an error (RFC 7515 §4.1.6).
    expectJOSEError(.invalidHeader) {
      try CompactJWS(try token(#"{"alg":"ES256","x5c":["MA-_"]}"#))
    }
    expectJOSEError(.malformedJWS) { try CompactJWS(try token(#"{"alg":"ES256","alg":"ES256"}"#)) }
    expectJOSEError(.malformedJWS) { try CompactJWS(try token(#"["alg"]"#)) }
    expectJOSEError(.malformedJWS) { try CompactJWS("a.b") }
    expectJOSEError(.malformedJWS) { try CompactJWS("a.b.c.d") }
    let good = try token(#"{"alg":"ES256"}"#)
    expectJOSEError(.malformedJWS) { try CompactJWS(good + "=") }
    expectJOSEError(.malformedJWS) { try CompactJWS("=" + good) }
    expectJOSEError(.invalidHeader) {
      try JWS.sign(payload: [1], protectedHeader: ["crit": ["x"], "x": 1], signer: key)
    }
    expectJOSEError(.invalidHeader) {
      try JWS.sign(payload: [1], protectedHeader: "ES256", signer: key)
    }
  }

  @Test("crit is accepted only for names the caller understands, present and not RFC 7515's own")
  func understoodCritical() throws {
    let key = try ECPrivateKey(curve: .p256)
    func token(_ header: String) throws -> String {
      let h = Base64URL.encode(Array(header.utf8))
      let p = Base64URL.encode(Array("x".utf8))
      return
        "\(h).\(p).\(Base64URL.encode(try key.signature(for: Array("\(h).\(p)".utf8)).rawRepresentation))"
    }
    let sigT: Set<String> = ["sigT"]
    let jws = try CompactJWS(
      try token(#"{"alg":"ES256","crit":["sigT"],"sigT":"2026-01-01T00:00:00Z"}"#),
      understoodCriticalParameters: sigT)
    try jws.verifySignature(with: key.publicKey)
    for header in [
      #"{"alg":"ES256","crit":["sigT"]}"#, #"{"alg":"ES256","crit":[],"sigT":"t"}"#,
      #"{"alg":"ES256","crit":["sigT","sigT"],"sigT":"t"}"#,
      #"{"alg":"ES256","crit":["kid"],"kid":"k"}"#, #"{"alg":"ES256","crit":["x"],"x":1}"#,
      #"{"alg":"ES256","crit":"sigT","sigT":"t"}"#,
    ] {
      expectJOSEError(.invalidHeader) {
        try CompactJWS(try token(header), understoodCriticalParameters: sigT)
      }
    }
    let signed = try JWS.sign(
      payload: [1], protectedHeader: ["crit": ["sigT"], "sigT": "t"], signer: key,
      understoodCriticalParameters: sigT)
    #expect(try CompactJWS(signed, understoodCriticalParameters: sigT).payload == [1])
    expectJOSEError(.invalidHeader) { try CompactJWS(signed) }
  }

  @Test("General JSON with two signatures on different curves; each verifies with its own key")
  func generalJSON() throws {
    let a = try ECPrivateKey(curve: .p256)
    let b = try ECPrivateKey(curve: .p384)
    let json = try JWSJSON.sign(
      payload: Array("multi".utf8),
      signers: [
        (protectedHeader: ["typ": "JWT"], unprotectedHeader: ["kid": "a"], signer: a),
        (protectedHeader: ["kid": "b"], unprotectedHeader: nil, signer: b),
      ])
    let jws = try JWSJSON(json.serialized())
    #expect(jws.signatures.map(\.keyID) == ["a", "b"])
    #expect(jws.signatures.map(\.algorithm) == [.es256, .es384])
    try jws.signatures[0].verifySignature(with: a.publicKey)
    try jws.signatures[1].verifySignature(with: b.publicKey)
    expectJOSEError(.algorithmKeyMismatch) {
      try jws.signatures[0].verifySignature(with: b.publicKey)
    }
    // Protected and unprotected header names must be disjoint (RFC 7515 §7.2.1).
    expectJOSEError(.malformedJWS) {
      try JWSJSON.sign(
        payload: [1],
        signers: [(protectedHeader: ["kid": "a"], unprotectedHeader: ["kid": "a"], signer: a)])
    }
    let mixed = json.setting("signature", to: "AAAA")
    expectJOSEError(.malformedJWS) { try JWSJSON(json: mixed) }
    expectJOSEError(.malformedJWS) { try JWSJSON(json: json.setting("signatures", to: [])) }
    // An unprotected alg is not accepted: alg must be integrity protected here.
    let entry: JSONValue = [
      "protected": .string(Base64URL.encode(Array("{}".utf8))), "header": ["alg": "ES256"],
      "signature": "AAAA",
    ]
    expectJOSEError(.invalidHeader) { try JWSJSON(json: ["payload": "eA", "signatures": [entry]]) }
    let critUnprotected: JSONValue = [
      "protected": .string(Base64URL.encode(Array(#"{"alg":"ES256"}"#.utf8))),
      "header": ["crit": ["x"]], "signature": "AAAA",
    ]
    expectJOSEError(.invalidHeader) {
      try JWSJSON(json: ["payload": "eA", "signatures": [critUnprotected]])
    }
  }
}
