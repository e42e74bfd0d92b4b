import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCTestSupport
import Testing

@Suite("JWE")
struct JWETests {
  @Test("RFC 7518 Appendix C: ECDH Z and the Concat KDF derived key match the published values")
  func rfc7518AppendixC() throws {
    let vector = try #require(try loadVector("jose-rfc-vectors")["rfc7518_appendix_c"])
    let alice = try JWK(json: try #require(vector["alice_ephemeral"])).privateKey()
    let bob = try JWK(json: try #require(vector["bob"])).privateKey()
    let z = try alice.sharedSecret(with: bob.publicKey)
    #expect(hexString(z) == vector["z"]?.string)
    #expect(try bob.sharedSecret(with: alice.publicKey) == z)
    let header = try #require(vector["header"])
    let derived = try ConcatKDF.deriveKey(
      sharedSecret: z, keyDataLength: 128, algorithmID: try #require(header["enc"]?.string),
      partyUInfo: try Base64URL.decode(try #require(header["apu"]?.string)),
      partyVInfo: try Base64URL.decode(try #require(header["apv"]?.string)))
    #expect(Base64URL.encode(derived) == vector["derived_key"]?.string)
    #expect(derived == [86, 170, 141, 234, 248, 35, 109, 32, 92, 34, 40, 205, 113, 167, 16, 26])
  }

  @Test("RFC 7518 Appendix C: a JWE built with the published header decrypts with Bob's key")
  func rfc7518AppendixCEndToEnd() throws {
    // The appendix prints no ciphertext, so we seal one under the derived key and the printed header.
    let vector = try #require(try loadVector("jose-rfc-vectors")["rfc7518_appendix_c"])
    let aliceJWK = try JWK(json: try #require(vector["alice_ephemeral"]))
    let bob = try JWK(json: try #require(vector["bob"])).privateKey()
    let header = try #require(vector["header"]).setting("epk", to: aliceJWK.publicJWK.json)
    let encodedHeader = Base64URL.encode(header.serializedBytes())
    let key = try Base64URL.decode(try #require(vector["derived_key"]?.string))
    let iv = [UInt8](repeating: 7, count: 12)
    let box = try AES.GCM.seal(
      Array("Appendix C".utf8), key: key, nonce: iv, authenticating: Array(encodedHeader.utf8))
    let compact = [
      encodedHeader, "", Base64URL.encode(iv), Base64URL.encode(box.ciphertext),
      Base64URL.encode(box.tag),
    ].joined(separator: ".")
    let jwe = try CompactJWE(compact)
    #expect(jwe.agreementPartyUInfo == Array("Alice".utf8))
    #expect(jwe.agreementPartyVInfo == Array("Bob".utf8))
    #expect(try jwe.decrypt(with: bob) == Array("Appendix C".utf8))
  }

  @Test(
    "Encrypt and decrypt on every curve and both encryptions", arguments: EllipticCurve.allCases,
    JWEEncryption.allCases)
  func roundTrip(_ curve: EllipticCurve, _ enc: JWEEncryption) throws {
    let recipient = try ECPrivateKey(curve: curve)
    let plaintext = Array("vp_token".utf8)
    let compact = try JWE.encrypt(
      plaintext: plaintext, recipient: recipient.publicKey, enc: enc, kid: "r1",
      apu: Array("wallet".utf8), apv: Array("nonce".utf8),
      additionalHeader: [("typ", "oauth-authz-req+jwt")])
    let jwe = try CompactJWE(compact)
    #expect(jwe.protectedHeader.keys == ["alg", "enc", "kid", "epk", "apu", "apv", "typ"])
    #expect(jwe.encryption == enc)
    #expect(jwe.keyID == "r1")
    #expect(jwe.ephemeralPublicKey.crv == curve)
    #expect(try jwe.decrypt(with: recipient) == plaintext)
    expectJOSEError(.decryptionFailed) { try jwe.decrypt(with: try ECPrivateKey(curve: curve)) }
  }

  @Test("A seeded random source gives a reproducible JWE")
  func deterministic() throws {
    let recipient = try ECPrivateKey(curve: .p256)
    let one = try JWE.encrypt(
      plaintext: [1, 2, 3], recipient: recipient.publicKey, enc: .a128gcm,
      random: CountingRandom(seed: 3))
    let two = try JWE.encrypt(
      plaintext: [1, 2, 3], recipient: recipient.publicKey, enc: .a128gcm,
      random: CountingRandom(seed: 3))
    #expect(one == two)
    #expect(try CompactJWE(one).decrypt(with: recipient) == [1, 2, 3])
  }

  /// Replaces part `index` of a compact JWE.
  func replacing(_ compact: String, part index: Int, with text: String) -> String {
    var parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    parts[index] = text
    return parts.joined(separator: ".")
  }

  /// Re-encodes the protected header after `edit`.
  func editingHeader(_ compact: String, _ edit: (JSONValue) throws -> JSONValue) throws -> String {
    let jwe = try CompactJWE(compact)
    return replacing(
      compact, part: 0, with: Base64URL.encode(try edit(jwe.protectedHeader).serializedBytes()))
  }

  @Test("Tampered tag, ciphertext, IV and protected header fail authentication")
  func tampering() throws {
    let recipient = try ECPrivateKey(curve: .p256)
    let compact = try JWE.encrypt(
      plaintext: Array("secret message".utf8), recipient: recipient.publicKey, enc: .a256gcm)
    let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    for index in [2, 3, 4] {
      var bytes = try Base64URL.decode(parts[index])
      bytes[0] ^= 0x80
      let tampered = replacing(compact, part: index, with: Base64URL.encode(bytes))
      expectJOSEError(.decryptionFailed) { try CompactJWE(tampered).decrypt(with: recipient) }
    }
    // A header that still parses but is not the one authenticated (RFC 7516 §5.2 step 14 AAD).
    let header = try editingHeader(compact) { $0.setting("kid", to: "x") }
    expectJOSEError(.decryptionFailed) { try CompactJWE(header).decrypt(with: recipient) }
    // Changing apv changes the derived key.
    let apv = try editingHeader(compact) { $0.setting("apv", to: "AAAA") }
    expectJOSEError(.decryptionFailed) { try CompactJWE(apv).decrypt(with: recipient) }
    // A tag of the wrong length is malformed.
    let shortTag = replacing(
      compact, part: 4, with: Base64URL.encode([UInt8](repeating: 0, count: 12)))
    expectJOSEError(.malformedJWE) { try CompactJWE(shortTag) }
    let shortIV = replacing(
      compact, part: 2, with: Base64URL.encode([UInt8](repeating: 0, count: 16)))
    expectJOSEError(.malformedJWE) { try CompactJWE(shortIV) }
  }

  @Test("Invalid epk: off the curve, on another curve, private, or missing")
  func invalidEphemeralKey() throws {
    let recipient = try ECPrivateKey(curve: .p256)
    let compact = try JWE.encrypt(plaintext: [1], recipient: recipient.publicKey, enc: .a128gcm)
    let offCurve = try editingHeader(compact) { header in
      var y = try #require(header["epk"]?["y"]?.string).utf8.map { $0 }
      y[5] = y[5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
      return header.setting(
        "epk",
        to: try #require(header["epk"]).setting(
          "y", to: .string(String(decoding: y, as: UTF8.self))))
    }
    expectJOSEError(.invalidKey) { try CompactJWE(offCurve) }
    let p384 = try ECPrivateKey(curve: .p384)
    let otherCurve = try editingHeader(compact) {
      $0.setting("epk", to: JWK(publicKey: p384.publicKey).json)
    }
    expectJOSEError(.algorithmKeyMismatch) { try CompactJWE(otherCurve).decrypt(with: recipient) }
    let privateEPK = try editingHeader(compact) {
      $0.setting("epk", to: JWK(privateKey: try ECPrivateKey(curve: .p256)).json)
    }
    expectJOSEError(.invalidKey) { try CompactJWE(privateEPK) }
    let noEPK = try editingHeader(compact) { $0.removing("epk") }
    expectJOSEError(.invalidHeader) { try CompactJWE(noEPK) }
  }

  @Test("Unknown alg/enc, zip, crit and a non-empty encrypted key are refused")
  func unsupported() throws {
    let recipient = try ECPrivateKey(curve: .p256)
    let compact = try JWE.encrypt(plaintext: [1], recipient: recipient.publicKey, enc: .a128gcm)
    for alg in ["ECDH-ES+A128KW", "RSA-OAEP", "dir", "none"] {
      expectJOSEError(.unsupportedAlgorithm) {
        try CompactJWE(try editingHeader(compact) { $0.setting("alg", to: .string(alg)) })
      }
    }
    for enc in ["A192GCM", "A128CBC-HS256", "a128gcm"] {
      expectJOSEError(.unsupportedAlgorithm) {
        try CompactJWE(try editingHeader(compact) { $0.setting("enc", to: .string(enc)) })
      }
    }
    expectJOSEError(.unsupportedAlgorithm) {
      try CompactJWE(try editingHeader(compact) { $0.setting("zip", to: "DEF") })
    }
    expectJOSEError(.invalidHeader) {
      try CompactJWE(
        try editingHeader(compact) { $0.setting("crit", to: ["x"]).setting("x", to: 1) })
    }
    let withKey = replacing(
      compact, part: 1, with: Base64URL.encode([UInt8](repeating: 1, count: 16)))
    expectJOSEError(.malformedJWE) { try CompactJWE(withKey) }
    expectJOSEError(.malformedJWE) { try CompactJWE("a.b.c.d") }
    expectJOSEError(.malformedJWE) { try CompactJWE(compact + "=") }
    expectJOSEError(.invalidHeader) {
      try JWE.encrypt(
        plaintext: [1], recipient: recipient.publicKey, enc: .a128gcm,
        additionalHeader: [("alg", "dir")])
    }
  }
}
