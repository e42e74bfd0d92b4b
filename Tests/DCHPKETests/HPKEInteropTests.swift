import DCCrypto
import DCHPKE
import DCTestSupport
import Testing

/// pyhpke (an independent RFC 9180 implementation) opens what we seal, and we open what it seals.
@Suite("HPKE interop with pyhpke")
struct HPKEInteropTests {
  static let cases: [(HPKE.Ciphersuite, String)] = [
    (.p256SHA256AES128GCM, "KEMId.DHKEM_P256_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.AES128_GCM"),
    (.p384SHA384AES256GCM, "KEMId.DHKEM_P384_HKDF_SHA384, KDFId.HKDF_SHA384, AEADId.AES256_GCM"),
    (.p521SHA512AES256GCM, "KEMId.DHKEM_P521_HKDF_SHA512, KDFId.HKDF_SHA512, AEADId.AES256_GCM"),
  ]

  static let prelude = """
    import sys, json
    from pyhpke import AEADId, CipherSuite, KDFId, KEMId
    args = json.loads(sys.stdin.read())
    h = bytes.fromhex
    """

  @Test("pyhpke opens our ciphertexts", .pythonPeers, arguments: cases)
  func pyhpkeOpensOurs(suite: HPKE.Ciphersuite, python: String) throws {
    try PythonPeer.require("pyhpke opens our ciphertexts")
    let skR = try ECPrivateKey(curve: suite.kem.curve)
    let info = Array("info for interop".utf8)
    let aad = Array("aad".utf8)
    let message = (0..<4096).map { UInt8(truncatingIfNeeded: $0) }
    var sender = try HPKE.Sender(recipientKey: skR.publicKey, ciphersuite: suite, info: info)
    let ct1 = try sender.seal(message, authenticating: aad)
    let ct2 = try sender.seal([1, 2, 3], authenticating: [])
    let script =
      Self.prelude + """

        suite = CipherSuite.new(\(python))
        sk = suite.kem.deserialize_private_key(h(args["sk"]))
        ctx = suite.create_recipient_context(h(args["enc"]), sk, info=h(args["info"]))
        print(ctx.open(h(args["ct1"]), aad=h(args["aad"])).hex())
        print(ctx.open(h(args["ct2"]), aad=b"").hex())
        """
    let input = """
      {"sk": "\(hexString(skR.rawRepresentation))", "enc": "\(hexString(sender.encapsulatedKey))",
       "info": "\(hexString(info))", "aad": "\(hexString(aad))", "ct1": "\(hexString(ct1))", "ct2": "\(hexString(ct2))"}
      """
    let lines = try PythonPeer.run(script, input: input).split(separator: "\n").map(String.init)
    #expect(lines == [hexString(message), "010203"])
  }

  @Test("We open pyhpke's ciphertexts", .pythonPeers, arguments: cases)
  func weOpenPyhpke(suite: HPKE.Ciphersuite, python: String) throws {
    try PythonPeer.require("we open pyhpke's ciphertexts")
    let skR = try ECPrivateKey(curve: suite.kem.curve)
    let script =
      Self.prelude + """

        suite = CipherSuite.new(\(python))
        pk = suite.kem.deserialize_public_key(h(args["pk"]))
        enc, ctx = suite.create_sender_context(pk, info=b"pyhpke info")
        print(enc.hex())
        print(ctx.seal(b"hello from pyhpke", aad=b"x").hex())
        """
    let lines = try PythonPeer.run(
      script, input: "{\"pk\": \"\(hexString(skR.publicKey.x963Representation))\"}"
    )
    .split(separator: "\n").map(String.init)
    try #require(lines.count == 2)
    let opened = try HPKE.open(
      hexBytes(lines[1]), encapsulatedKey: hexBytes(lines[0]), privateKey: skR, ciphersuite: suite,
      info: Array("pyhpke info".utf8), authenticating: Array("x".utf8))
    #expect(opened == Array("hello from pyhpke".utf8))
  }
}
