import DCCrypto
import DCJOSE
import DCJSON
import DCTestSupport
import Foundation
import Testing

/// Interop with joserfc and jwcrypto, implementations we did not write (see ../shared/DESIGN.md).
@Suite("JOSE interop (Python peers)")
struct InteropTests {
  /// Registries with joserfc's default size limits raised (512-byte JWS headers, 64 KiB JWE parts).
  static let prelude = """
    import sys, json, base64, hashlib
    from joserfc import jws, jwe
    from joserfc.jwk import ECKey, KeySet
    def jws_registry():
        r = jws.JWSRegistry(algorithms=["ES256", "ES384", "ES512"], strict_check_header=False)
        r.max_header_length = 1 << 20
        r.max_payload_length = 1 << 20
        return r
    def jwe_registry():
        r = jwe.JWERegistry(algorithms=["ECDH-ES", "A128GCM", "A256GCM"])
        r.max_protected_header_length = 1 << 20
        r.max_ciphertext_length = 1 << 22
        return r
    data = json.loads(sys.stdin.read())

    """

  static func run(_ body: String, input: JSONValue) throws -> JSONValue {
    let output = try PythonPeer.run(prelude + body, input: input.serialized())
    return try JSONValue(parsing: output.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  @Test(
    "joserfc decrypts our ECDH-ES JWE (P-256, A128GCM and A256GCM, with apu/apv)", .pythonPeers,
    arguments: JWEEncryption.allCases)
  func ourJWEInJoserfc(_ enc: JWEEncryption) throws {
    try PythonPeer.require("ourJWEInJoserfc")
    let recipient = try ECPrivateKey(curve: .p256)
    let plaintext = Array(String(repeating: "vp_token ü ", count: 9000).utf8)  // > 64 KiB
    let compact = try JWE.encrypt(
      plaintext: plaintext, recipient: recipient.publicKey, enc: enc, kid: "verifier-1",
      apu: Array("wallet nonce".utf8), apv: Array("verifier nonce".utf8))
    let result = try Self.run(
      """
      key = ECKey.import_key(data["jwk"])
      obj = jwe.decrypt_compact(data["jwe"], key, registry=jwe_registry())
      print(json.dumps({"plaintext_sha256": hashlib.sha256(obj.plaintext).hexdigest(), "enc": obj.protected["enc"], "kid": obj.protected["kid"]}))
      """,
      input: ["jwk": JWK(privateKey: recipient).json, "jwe": .string(compact)])
    #expect(result["plaintext_sha256"]?.string == hexString(SHA256.hash(data: plaintext)))
    #expect(result["enc"]?.string == enc.rawValue)
    #expect(result["kid"] == "verifier-1")
  }

  @Test(
    "We decrypt joserfc's ECDH-ES JWE (A128GCM and A256GCM, with apu/apv)", .pythonPeers,
    arguments: JWEEncryption.allCases, EllipticCurve.allCases)
  func joserfcJWEInOurs(_ enc: JWEEncryption, _ curve: EllipticCurve) throws {
    try PythonPeer.require("joserfcJWEInOurs")
    let recipient = try ECPrivateKey(curve: curve)
    let result = try Self.run(
      """
      key = ECKey.import_key(data["jwk"])
      header = {"alg": "ECDH-ES", "enc": data["enc"], "apu": "QWxpY2U", "apv": "Qm9i", "kid": "k"}
      print(json.dumps({"jwe": jwe.encrypt_compact(header, data["plaintext"].encode(), key, registry=jwe_registry())}))
      """,
      input: [
        "jwk": JWK(publicKey: recipient.publicKey).json, "enc": .string(enc.rawValue),
        "plaintext": "Hello from joserfc ✓",
      ])
    let jwe = try CompactJWE(try #require(result["jwe"]?.string))
    #expect(jwe.agreementPartyUInfo == Array("Alice".utf8))
    #expect(jwe.agreementPartyVInfo == Array("Bob".utf8))
    #expect(jwe.encryption == enc)
    #expect(try jwe.decrypt(with: recipient) == Array("Hello from joserfc ✓".utf8))
  }

  @Test("joserfc verifies our compact ES256 JWS with a large x5c header", .pythonPeers)
  func ourJWSInJoserfc() throws {
    try PythonPeer.require("ourJWSInJoserfc")
    let key = try ECPrivateKey(curve: .p256)
    let chain: [[UInt8]] = [
      (0..<1800).map { UInt8(truncatingIfNeeded: $0 * 31) },
      (0..<1500).map { UInt8(truncatingIfNeeded: $0 * 17 + 5) },
    ]
    let compact = try JWS.sign(
      payload: Array(#"{"iss":"wallet","nonce":"n-0S6_WzA2Mj"}"#.utf8),
      protectedHeader: ["typ": "oauth-authz-req+jwt", "x5c": JWS.x5c(chain)], signer: key)
    let result = try Self.run(
      """
      key = ECKey.import_key(data["jwk"])
      obj = jws.deserialize_compact(data["jws"], key, registry=jws_registry())
      chain = [hashlib.sha256(base64.b64decode(c, validate=True)).hexdigest() for c in obj.headers()["x5c"]]
      print(json.dumps({"payload": obj.payload.decode(), "alg": obj.headers()["alg"], "x5c": chain}))
      """,
      input: ["jwk": JWK(publicKey: key.publicKey).json, "jws": .string(compact)])
    #expect(result["payload"]?.string == #"{"iss":"wallet","nonce":"n-0S6_WzA2Mj"}"#)
    #expect(result["alg"] == "ES256")
    #expect(result["x5c"] == .array(chain.map { .string(hexString(SHA256.hash(data: $0))) }))
  }

  @Test(
    "We verify joserfc's compact JWS on every curve", .pythonPeers,
    arguments: EllipticCurve.allCases)
  func joserfcJWSInOurs(_ curve: EllipticCurve) throws {
    try PythonPeer.require("joserfcJWSInOurs")
    let key = try ECPrivateKey(curve: curve)
    let algorithm = JWSAlgorithm(curve: curve)
    let result = try Self.run(
      """
      key = ECKey.import_key(data["jwk"])
      header = {"alg": data["alg"], "kid": "issuer-key", "typ": "dc+sd-jwt"}
      print(json.dumps({"jws": jws.serialize_compact(header, b"signed by joserfc", key, registry=jws_registry())}))
      """,
      input: ["jwk": JWK(privateKey: key).json, "alg": .string(algorithm.rawValue)])
    let jws = try CompactJWS(try #require(result["jws"]?.string))
    #expect(jws.algorithm == algorithm)
    #expect(jws.keyID == "issuer-key")
    #expect(jws.type == "dc+sd-jwt")
    try jws.verifySignature(with: key.publicKey)
    #expect(jws.payload == Array("signed by joserfc".utf8))
  }

  @Test("joserfc and jwcrypto verify our general JSON JWS with two signatures", .pythonPeers)
  func ourGeneralJSONInPeers() throws {
    try PythonPeer.require("ourGeneralJSONInPeers")
    let a = try ECPrivateKey(curve: .p256)
    let b = try ECPrivateKey(curve: .p521)
    let json = try JWSJSON.sign(
      payload: Array("two signers".utf8),
      signers: [
        (protectedHeader: ["kid": "a"], unprotectedHeader: ["note": "first"], signer: a),
        (protectedHeader: ["kid": "b"], unprotectedHeader: nil, signer: b),
      ])
    let result = try Self.run(
      """
      from jwcrypto import jwk as cjwk, jws as cjws
      keys = KeySet.import_key_set({"keys": data["keys"]})
      obj = jws.deserialize_json(data["jws"], keys, registry=jws_registry())
      verified = []
      for k in data["keys"]:
          token = cjws.JWS()
          token.deserialize(json.dumps(data["jws"]))
          token.verify(cjwk.JWK(**k))
          verified.append(k["kid"])
      print(json.dumps({"payload": obj.payload.decode(), "count": len(obj.members), "jwcrypto": verified}))
      """,
      input: [
        "jws": json,
        "keys": [
          JWK(publicKey: a.publicKey, kid: "a").json, JWK(publicKey: b.publicKey, kid: "b").json,
        ],
      ])
    #expect(result["payload"] == "two signers")
    #expect(result["count"] == 2)
    #expect(result["jwcrypto"] == ["a", "b"])
  }

  @Test("joserfc's general JSON JWS with two signatures verifies here", .pythonPeers)
  func joserfcGeneralJSONInOurs() throws {
    try PythonPeer.require("joserfcGeneralJSONInOurs")
    let a = try ECPrivateKey(curve: .p384)
    let b = try ECPrivateKey(curve: .p256)
    let result = try Self.run(
      """
      members = [
          {"protected": {"alg": "ES384"}, "header": {"kid": "a"}},
          {"protected": {"alg": "ES256", "kid": "b"}},
      ]
      keys = KeySet.import_key_set({"keys": data["keys"]})
      print(json.dumps(jws.serialize_json(members, b"general from joserfc", keys, registry=jws_registry())))
      """,
      input: ["keys": [JWK(privateKey: a, kid: "a").json, JWK(privateKey: b, kid: "b").json]])
    let jws = try JWSJSON(json: result)
    #expect(jws.signatures.count == 2)
    let keys = JWKSet(keys: [
      JWK(publicKey: a.publicKey, kid: "a"), JWK(publicKey: b.publicKey, kid: "b"),
    ])
    for signature in jws.signatures {
      try signature.verifySignature(
        with: try keys.key(withID: try #require(signature.keyID)).publicKey())
    }
    #expect(jws.payload == Array("general from joserfc".utf8))
  }

  @Test(
    "RFC 7638 thumbprints agree with joserfc on every curve", .pythonPeers,
    arguments: EllipticCurve.allCases)
  func thumbprints(_ curve: EllipticCurve) throws {
    try PythonPeer.require("thumbprints")
    let jwk = JWK(publicKey: try ECPrivateKey(curve: curve).publicKey, kid: "ignored", use: "enc")
    let result = try Self.run(
      "print(json.dumps({\"t\": ECKey.import_key(data).thumbprint()}))", input: jwk.json)
    #expect(result["t"]?.string == jwk.thumbprintBase64URL)
  }
}
