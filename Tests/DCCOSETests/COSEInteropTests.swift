import DCCBOR
import DCCOSE
import DCCrypto
import DCTestSupport
import Testing

/// pycose (an independent RFC 9052 implementation) verifies what we sign, and we verify what it signs.
@Suite("COSE interop with pycose")
struct COSEInteropTests {
  static let prelude = """
    import sys, json
    from pycose.messages import Sign1Message
    from pycose.keys import EC2Key
    from pycose.keys.curves import P256, P384, P521
    from pycose.headers import Algorithm
    from pycose.algorithms import Es256, Es384, Es512
    args = json.loads(sys.stdin.read())
    h = bytes.fromhex
    import cbor2
    def decode_sign1(b):
        # cbor2 6.x hands tag content over as a tuple, which pycose 1.1 refuses: pass it a list.
        tag = cbor2.loads(b)
        assert tag.tag == 18
        obj = [tag.value[0], dict(tag.value[1]), tag.value[2], tag.value[3]]
        return Sign1Message.from_cose_obj(obj, True)
    crv = {"P-256": P256, "P-384": P384, "P-521": P521}[args["crv"]]
    alg = {"P-256": Es256, "P-384": Es384, "P-521": Es512}[args["crv"]]
    """

  @Test(
    "pycose verifies our COSE_Sign1 (attached, detached, external AAD)", .pythonPeers,
    arguments: EllipticCurve.allCases)
  func pycoseVerifiesOurs(curve: EllipticCurve) throws {
    try PythonPeer.require("pycose verifies our COSE_Sign1")
    let key = try ECPrivateKey(curve: curve)
    let payload = Array("payload from Swift".utf8)
    let attached = try COSESign1.sign(payload: payload, externalAAD: [7, 7], signer: key)
    let detached = try COSESign1.sign(payload: payload, detached: true, signer: key)
    let script =
      Self.prelude + """

        key = EC2Key(crv=crv, x=h(args["x"]), y=h(args["y"]))
        m = decode_sign1(h(args["attached"]))
        m.key = key
        m.external_aad = b"\\x07\\x07"
        print(m.verify_signature())
        d = decode_sign1(h(args["detached"]))
        d.key = key
        print(d.verify_signature(detached_payload=h(args["payload"])))
        """
    let input = """
      {"crv": "\(curve.rawValue)", "x": "\(hexString(key.publicKey.x))", "y": "\(hexString(key.publicKey.y))",
       "attached": "\(hexString(attached.cbor(tagged: true).encoded()))",
       "detached": "\(hexString(detached.cbor(tagged: true).encoded()))", "payload": "\(hexString(payload))"}
      """
    #expect(try PythonPeer.run(script, input: input).split(separator: "\n") == ["True", "True"])
  }

  @Test("We verify pycose's COSE_Sign1", .pythonPeers, arguments: EllipticCurve.allCases)
  func weVerifyPycose(curve: EllipticCurve) throws {
    try PythonPeer.require("we verify pycose's COSE_Sign1")
    let script =
      Self.prelude + """

        key = EC2Key.generate_key(crv=crv)
        m = Sign1Message(phdr={Algorithm: alg}, payload=b"payload from pycose")
        m.key = key
        print(m.encode().hex())
        print(key.x.hex())
        print(key.y.hex())
        """
    let lines = try PythonPeer.run(script, input: "{\"crv\": \"\(curve.rawValue)\"}").split(
      separator: "\n"
    ).map(String.init)
    try #require(lines.count == 3)
    let message = try COSESign1(bytes: hexBytes(lines[0]))
    let key = try ECPublicKey(x: hexBytes(lines[1]), y: hexBytes(lines[2]), curve: curve)
    try message.verify(publicKey: key)
    #expect(message.payload == Array("payload from pycose".utf8))
  }
}
