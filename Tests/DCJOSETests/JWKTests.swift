import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCTestSupport
import Testing

@Suite("JWK")
struct JWKTests {
  @Test("OpenID4VP 1.0 §B.2.6 verifier JWK thumbprint matches the published value")
  func openID4VPThumbprint() throws {
    let vectors = try loadVector("openid4vp-1.0-handover")
    for section in ["redirect", "dc_api"] {
      let jwk = try JWK(json: try #require(vectors[section]?["jwk"]))
      let expected = try #require(vectors[section]?["jwk_thumbprint"]?.string)
      #expect(hexString(jwk.thumbprint()) == expected)
      #expect(jwk.kid == "1")
      #expect(jwk.use == "enc")
      #expect(jwk.alg == "ECDH-ES")
    }
  }

  @Test("RFC 7520 §3.1 P-521 key thumbprint equals the joserfc-computed value")
  func rfc7520Thumbprint() throws {
    let vectors = try loadVector("jose-rfc-vectors")
    let jwk = try JWK(json: try #require(vectors["rfc7520_4_3"]?["jwk"]))
    #expect(jwk.thumbprintBase64URL == vectors["rfc7520_thumbprint"]?.string)
    // The private key matches its public coordinates (RFC 7518 §6.2.2.1).
    let privateKey = try jwk.privateKey()
    #expect(privateKey.publicKey == (try jwk.publicKey()))
  }

  @Test("JSON round trip keeps unknown members and order; public JWK drops d")
  func roundTrip() throws {
    let key = try ECPrivateKey(curve: .p384)
    var jwk = JWK(privateKey: key, kid: "k1", use: "sig", alg: "ES384")
    jwk.additionalMembers = [("x5t#S256", "abc"), ("ext", true)]
    let parsed = try JWK(json: try JSONValue(parsing: jwk.json.serialized()))
    #expect(parsed == jwk)
    #expect(parsed.additionalMembers.map(\.key) == ["x5t#S256", "ext"])
    #expect(parsed.publicJWK.d == nil)
    #expect(parsed.publicJWK.json["d"] == nil)
    #expect(try parsed.privateKey().rawRepresentation == key.rawRepresentation)
    #expect(!jwk.description.contains(Base64URL.encode(key.rawRepresentation)))
  }

  @Test("Rejects short coordinates, off-curve points, unknown kty/crv and a mismatched d")
  func invalid() throws {
    let key = try ECPrivateKey(curve: .p256)
    let good = JWK(privateKey: key).json
    // A coordinate with its leading byte stripped is the wrong size (RFC 7518 §6.2.1.2).
    let short = good.setting("x", to: .string(Base64URL.encode(Array(key.publicKey.x.dropFirst()))))
    expectJOSEError(.invalidKey) { try JWK(json: short) }
    var y = key.publicKey.y
    y[31] ^= 1
    expectJOSEError(.invalidKey) {
      try JWK(json: good.setting("y", to: .string(Base64URL.encode(y))))
    }
    expectJOSEError(.unsupportedAlgorithm) { try JWK(json: good.setting("kty", to: "RSA")) }
    expectJOSEError(.unsupportedAlgorithm) { try JWK(json: good.setting("crv", to: "secp256k1")) }
    expectJOSEError(.invalidKey) { try JWK(json: good.removing("y")) }
    expectJOSEError(.invalidKey) { try JWK(json: good.setting("x", to: 5)) }
    let other = try ECPrivateKey(curve: .p256)
    let mismatched = try JWK(
      json: good.setting("d", to: .string(Base64URL.encode(other.rawRepresentation))))
    expectJOSEError(.invalidKey) { try mismatched.privateKey() }
  }

  @Test("JWK Set: skips unsupported key types, finds by kid, refuses a missing kid")
  func keySet() throws {
    let a = JWK(publicKey: try ECPrivateKey(curve: .p256).publicKey, kid: "a")
    let b = JWK(publicKey: try ECPrivateKey(curve: .p521).publicKey, kid: "b")
    let json: JSONValue = [
      "keys": [a.json, ["kty": "RSA", "n": "AQAB", "e": "AQAB", "kid": "r"], b.json]
    ]
    let set = try JWKSet(json: json)
    #expect(set.keys.count == 2)
    #expect(try set.key(withID: "b") == b)
    expectJOSEError(.keyNotFound) { try set.key(withID: "r") }
    expectJOSEError(.keyNotFound) { try set.key(withID: "zzz") }
    #expect(try JWKSet(json: set.json) == set)
  }
}
