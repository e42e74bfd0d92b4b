import DCCBOR
import DCCrypto
import DCJSON
import DCMdoc
import DCMdocProximity
import DCTestSupport
import Testing

/// The session crypto of ISO 18013-5 §9.1.1.5 composed independently from pyca/cryptography
/// (ECDH, HKDF-SHA256, AES-256-GCM) for fresh random sessions, both directions.
@Suite("Session encryption interop with pyca/cryptography")
struct SessionInteropTests {
  static let script = """
    import json, sys, hashlib
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    a = json.load(sys.stdin)
    h = bytes.fromhex
    curve = {"P-256": ec.SECP256R1(), "P-384": ec.SECP384R1(), "P-521": ec.SECP521R1()}[a["crv"]]
    reader = ec.derive_private_key(int(a["d_reader"], 16), curve)
    device = ec.EllipticCurvePublicNumbers(int(a["x_device"], 16), int(a["y_device"], 16), curve).public_key()
    zab = reader.exchange(ec.ECDH(), device)
    salt = hashlib.sha256(h(a["transcript_tagged"])).digest()
    def key(info):
        return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(zab)
    sk_reader, sk_device = key(b"SKReader"), key(b"SKDevice")
    def iv(identifier, counter):
        return identifier.to_bytes(8, "big") + counter.to_bytes(4, "big")
    out = {
      "sk_reader": sk_reader.hex(), "sk_device": sk_device.hex(),
      "request1": AESGCM(sk_reader).decrypt(iv(0, 1), h(a["establishment_data"]), None).hex(),
      "response1": AESGCM(sk_device).decrypt(iv(1, 1), h(a["response1_data"]), None).hex(),
      "request2": AESGCM(sk_reader).encrypt(iv(0, 2), h(a["request2"]), None).hex(),
      "response2": AESGCM(sk_device).encrypt(iv(1, 2), h(a["response2"]), None).hex(),
    }
    print(json.dumps(out))
    """

  @Test(
    "Python decrypts our messages and we decrypt its", .pythonPeers,
    arguments: EllipticCurve.allCases)
  func bothDirections(curve: EllipticCurve) throws {
    try PythonPeer.require("session encryption interop")
    let eDeviceKey = try ECPrivateKey(curve: curve)
    let eReaderKey = try ECPrivateKey(curve: curve)
    var holder = try HolderSession.qr(
      retrievalMethods: [.ble(BLEOptions(peripheralServerUUID: SecureRandom.bytes(count: 16)))],
      eDeviceKey: eDeviceKey)
    var reader = try ReaderSession(uri: holder.uri, eReaderKey: eReaderKey)
    let request1 = SecureRandom.bytes(count: 200)
    let response1 = SecureRandom.bytes(count: 1500)
    let request2 = SecureRandom.bytes(count: 33)
    let response2 = SecureRandom.bytes(count: 700)

    let establishment = try reader.send(request: request1)
    #expect(try holder.receive(establishment) == .message(request1))
    let responseMessage = try holder.send(response: response1)
    #expect(try reader.receive(responseMessage) == .message(response1))

    let input = """
      {"crv": "\(curve.rawValue)", "d_reader": "\(hexString(eReaderKey.rawRepresentation))",
       "x_device": "\(hexString(eDeviceKey.publicKey.x))", "y_device": "\(hexString(eDeviceKey.publicKey.y))",
       "transcript_tagged": "\(hexString(reader.transcript.taggedBytes))",
       "establishment_data": "\(hexString(try SessionEstablishment(bytes: establishment).data))",
       "response1_data": "\(hexString(try #require(try SessionData(bytes: responseMessage).data)))",
       "request2": "\(hexString(request2))", "response2": "\(hexString(response2))"}
      """
    let json = try JSONValue(parsing: PythonPeer.run(Self.script, input: input))
    let output = { (name: String) in json[name]?.string }
    let keys = try SessionKeys(
      privateKey: eReaderKey, peerPublicKey: eDeviceKey.publicKey, transcript: reader.transcript)
    #expect(output("sk_reader") == hexString(keys.skReader))
    #expect(output("sk_device") == hexString(keys.skDevice))
    #expect(output("request1") == hexString(request1))
    #expect(output("response1") == hexString(response1))

    // AES-GCM is deterministic for a key, IV and plaintext: our next messages equal Python's.
    let pythonRequest2 = hexBytes(try #require(output("request2")))
    let pythonResponse2 = hexBytes(try #require(output("response2")))
    #expect(try SessionData(bytes: reader.send(request: request2)).data == pythonRequest2)
    #expect(try holder.receive(SessionData(data: pythonRequest2).bytes) == .message(request2))
    #expect(try SessionData(bytes: holder.send(response: response2)).data == pythonResponse2)
    #expect(try reader.receive(SessionData(data: pythonResponse2).bytes) == .message(response2))
  }
}
