import DCCBOR
import DCCOSE
import DCCrypto
import DCMdoc
import DCTestSupport
import Foundation
import Testing

/// deviceMac generation (ISO 18013-5 §9.1.3.5) against the Annex D worked example: the holder's
/// EMacKey from SDeviceKey and the transcript's EReaderKey, the COSE_Mac0 and the whole
/// DeviceResponse, byte for byte; and the same EMacKey and tag from Python `cryptography`.
@Suite("deviceMac generation: Annex D byte for byte, and Python cryptography")
struct DeviceMacGenerationTests {
  let d: AnnexD
  init() throws { d = try AnnexD() }

  func field(_ path: String...) throws -> [UInt8] {
    var value: Any? = d.json
    for key in path { value = (value as? [String: Any])?[key] }
    return hexBytes(try #require(value as? String, "\(path)"))
  }

  func publicKey(_ name: String) throws -> ECPublicKey {
    let keys = try #require(d.json["keys"] as? [String: [String: String]])
    return try ECPublicKey(
      x: hexBytes(try #require(keys[name]?["x"])), y: hexBytes(try #require(keys[name]?["y"])),
      curve: .p256)
  }

  /// The Annex D document presented again with every element it holds, MACed by the holder.
  func presentAgain(deviceKey: any KeyAgreementKey, eReaderKey: ECPublicKey) throws -> Document {
    let published = try #require(
      try DeviceResponse(bytes: try field("device_response")).documents.first)
    var all: [String: Set<String>] = [:]
    for (ns, items) in published.issuerSigned.nameSpaces {
      all[ns] = Set(items.map(\.elementIdentifier))
    }
    return try Document.present(
      published.issuerSigned, disclosing: all, sessionTranscript: try d.transcript,
      authenticator: .mac(deviceKey, eReaderKey: eReaderKey))
  }

  @Test("The transcript's EReaderKey is the published reader key; null and junk members")
  func eReaderKeyFromTranscript() throws {
    #expect(try d.transcript.eReaderKey == (try publicKey("e_reader_key")))
    // The online profiles carry null: no reader key.
    #expect(try SessionTranscript(handover: ["dcapi", .byteString([1])]).eReaderKey == nil)
    // A member that is not tag 24 around a COSE_Key is malformed.
    for junk: CBOR in [.byteString([1, 2]), .tagged(24, .byteString([0xA0])), 7] {
      let malformedError = #expect(throws: MdocError.self) {
        _ = try SessionTranscript(eReaderKeyBytes: junk, handover: .null).eReaderKey
      }
      #expect(malformedError?.code == .malformed)
    }
  }

  @Test("The holder's deviceMac and DeviceResponse are the published bytes")
  func annexDByteForByte() throws {
    let transcript = try d.transcript
    let eReaderKey = try #require(try transcript.eReaderKey)
    let sDeviceKey = try d.key("s_device_key")
    // The holder's EMacKey (device private key + reader public key) is the reader's (reader
    // ephemeral private key + the MSO's device key) and the published one.
    let holderKey = try DeviceAuthentication.macKey(
      keyAgreement: sDeviceKey, peerKey: eReaderKey, sessionTranscript: transcript)
    let readerKey = try DeviceAuthentication.macKey(
      privateKey: try d.key("e_reader_key"), peerKey: sDeviceKey.publicKey,
      sessionTranscript: transcript)
    #expect(holderKey == (try field("e_mac_key_intermediates", "e_mac_key")))
    #expect(readerKey == holderKey)

    let document = try presentAgain(deviceKey: sDeviceKey, eReaderKey: eReaderKey)
    #expect(document.deviceSigned.cbor["deviceAuth"]?.encoded() == (try field("device_auth")))
    guard case .mac(let mac0) = document.deviceSigned.deviceAuth else {
      Issue.record("a deviceMac was asked for")
      return
    }
    #expect(mac0.payload == nil)
    #expect(mac0.mac == (try field("e_mac_key_intermediates", "mac_tag")))
    #expect(
      COSEMac0.toBeMACed(
        protectedBytes: mac0.headers.bodyProtected, externalAAD: [],
        payload: DeviceAuthentication.bytes(
          sessionTranscript: transcript, docType: document.docType,
          deviceNameSpaces: document.deviceSigned.nameSpaces))
        == (try field("device_mac_structure")))
    // The whole response, as Annex D prints it, and the reader verifies it.
    let response = DeviceResponse(documents: [document])
    #expect(response.bytes == (try field("device_response")))
    try document.verifyDeviceAuthentication(
      sessionTranscript: transcript, deviceKey: sDeviceKey.publicKey
    ) { () throws(MdocError) in readerKey }
  }

  @Test("A deviceMac keyed with another reader key or transcript does not verify")
  func wrongKeyOrTranscript() throws {
    let transcript = try d.transcript
    let sDeviceKey = try d.key("s_device_key")
    let stranger = try ECPrivateKey(curve: .p256)
    let document = try presentAgain(deviceKey: sDeviceKey, eReaderKey: stranger.publicKey)
    let readerKey = try DeviceAuthentication.macKey(
      privateKey: try d.key("e_reader_key"), peerKey: sDeviceKey.publicKey,
      sessionTranscript: transcript)
    let invalidDeviceSignatureError = #expect(throws: MdocError.self) {
      try document.verifyDeviceAuthentication(
        sessionTranscript: transcript, deviceKey: sDeviceKey.publicKey
      ) { () throws(MdocError) in readerKey }
    }
    #expect(invalidDeviceSignatureError?.code == .invalidDeviceSignature)
    let good = try presentAgain(deviceKey: sDeviceKey, eReaderKey: try publicKey("e_reader_key"))
    let other = SessionTranscript(handover: .null)
    let invalidDeviceSignatureError2 = #expect(throws: MdocError.self) {
      try good.verifyDeviceAuthentication(
        sessionTranscript: other, deviceKey: sDeviceKey.publicKey
      ) { () throws(MdocError) in readerKey }
    }
    #expect(invalidDeviceSignatureError2?.code == .invalidDeviceSignature)
  }

  @Test("Python cryptography derives the same EMacKey and tag from the Annex D keys", .pythonPeers)
  func pythonCryptography() throws {
    try PythonPeer.require("EMacKey with Python cryptography")
    let transcript = try d.transcript
    let sDeviceKey = try d.key("s_device_key")
    let eReaderKey = try publicKey("e_reader_key")
    let document = try presentAgain(deviceKey: sDeviceKey, eReaderKey: eReaderKey)
    guard case .mac(let mac0) = document.deviceSigned.deviceAuth else {
      Issue.record("a deviceMac was asked for")
      return
    }
    let script = """
      import sys, json, hashlib, hmac
      from cryptography.hazmat.primitives import hashes
      from cryptography.hazmat.primitives.asymmetric import ec
      from cryptography.hazmat.primitives.kdf.hkdf import HKDF
      a = json.loads(sys.stdin.read()); h = bytes.fromhex
      d = ec.derive_private_key(int(a["d"], 16), ec.SECP256R1())
      peer = ec.EllipticCurvePublicNumbers(int(a["x"], 16), int(a["y"], 16), ec.SECP256R1()).public_key()
      zab = d.exchange(ec.ECDH(), peer)
      salt = hashlib.sha256(h(a["transcript"])).digest()
      key = HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=b"EMacKey").derive(zab)
      tag = hmac.new(key, h(a["structure"]), hashlib.sha256).digest()
      print(key.hex()); print(tag.hex())
      """
    let structure = COSEMac0.toBeMACed(
      protectedBytes: mac0.headers.bodyProtected, externalAAD: [],
      payload: DeviceAuthentication.bytes(
        sessionTranscript: transcript, docType: document.docType,
        deviceNameSpaces: document.deviceSigned.nameSpaces))
    let input = """
      {"d": "\(hex(sDeviceKey.rawRepresentation))", "x": "\(hex(eReaderKey.x))", \
      "y": "\(hex(eReaderKey.y))", "transcript": "\(hex(transcript.taggedBytes))", \
      "structure": "\(hex(structure))"}
      """
    let lines = try PythonPeer.run(script, input: input).split(separator: "\n").map(String.init)
    let ours = try DeviceAuthentication.macKey(
      keyAgreement: sDeviceKey, peerKey: eReaderKey, sessionTranscript: transcript)
    #expect(lines.first == hex(ours))
    #expect(lines.dropFirst().first == hex(mac0.mac))
  }

  func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
