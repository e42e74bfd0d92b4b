import DCCBOR
import DCCOSE
import DCCrypto
import DCMdoc
import DCTestSupport
import DCX509
import Foundation
import Testing

/// The session fields of the ISO 18013-5 Annex D worked example that the other Annex D tests do
/// not read: the SessionTranscript's members, the session keys and encryption (§9.1.1.5), the
/// EMacKey and deviceMac (§9.1.3.5), and the signature structures, each rebuilt with this
/// package's primitives and compared with the published bytes.
@Suite("ISO 18013-5 Annex D session and MAC")
struct AnnexDSessionTests {
  let d: AnnexD
  init() throws { d = try AnnexD() }

  func field(_ path: String...) throws -> [UInt8] {
    var value: Any? = d.json
    for key in path { value = (value as? [String: Any])?[key] }
    return hexBytes(try #require(value as? String, "\(path)"))
  }

  func publicKey(_ name: String) throws -> ECPublicKey {
    try ECPublicKey(x: try field("keys", name, "x"), y: try field("keys", name, "y"), curve: .p256)
  }

  /// The published private scalars belong to the published points.
  @Test("The example keys are consistent")
  func keys() throws {
    for name in ["e_device_key", "e_reader_key", "s_device_key"] {
      #expect(try d.key(name).publicKey == (try publicKey(name)), "\(name)")
    }
  }

  /// §9.1.5.1: SessionTranscript = [DeviceEngagementBytes, EReaderKeyBytes, Handover], here with
  /// the NFC static handover [HandoverSelect, HandoverRequest].
  @Test("SessionTranscript members: DeviceEngagement, EReaderKey and the NFC handover")
  func transcriptMembers() throws {
    let members = try #require(try d.transcript.encoded.value.array)
    let engagement = try members[0].requireTag24("DeviceEngagementBytes")
    #expect(engagement.bytes == (try field("session_transcript_device_engagement")))
    // DeviceEngagement.security = [cipher suite 1, EDeviceKeyBytes].
    let security = try #require(engagement.value[1]?.array)
    #expect(security[0] == 1)
    #expect(security[1].encoded() == (try field("e_device_key_bytes")))
    let eDeviceKey = try COSEKey(cbor: try security[1].requireTag24("EDeviceKeyBytes").value)
    #expect(try eDeviceKey.publicKey() == (try publicKey("e_device_key")))
    // The QR engagement carries the same EDeviceKeyBytes.
    let qr = try CBOR.decode(try field("device_engagement"))
    #expect(qr[1]?.array?[1].encoded() == (try field("e_device_key_bytes")))

    let eReaderKey = try COSEKey(cbor: try members[1].requireTag24("EReaderKeyBytes").value)
    #expect(try eReaderKey.publicKey() == (try publicKey("e_reader_key")))
    // The session establishment names the same reader key.
    let establishment = try CBOR.decode(try field("session_establishment"))
    #expect(establishment["eReaderKey"] == members[1])

    let handover = try #require(members[2].array)
    #expect(handover.count == 2)
    #expect(handover[0].bytes == (try field("nfc_handover_select")))
    #expect(handover[1].bytes == (try field("nfc_handover_request")))
  }

  /// §9.1.1.5: SKReader / SKDevice = HKDF-SHA-256(ECDH(EReaderKey, EDeviceKey),
  /// salt = SHA-256(SessionTranscriptBytes), info "SKReader" / "SKDevice", 32 bytes).
  func sessionKeys() throws -> (reader: [UInt8], device: [UInt8]) {
    let zab = try d.key("e_reader_key").sharedSecret(with: try publicKey("e_device_key"))
    // Both sides reach the same secret.
    #expect(zab == (try d.key("e_device_key").sharedSecret(with: try publicKey("e_reader_key"))))
    #expect(zab == (try field("derived_session_keys", "zab")))
    let salt = SHA256.hash(data: try d.transcript.taggedBytes)
    #expect(salt == (try field("derived_session_keys", "salt")))
    func derive(_ info: String) throws -> [UInt8] {
      try HKDF.deriveKey(
        .sha256, inputKeyMaterial: zab, salt: salt, info: Array(info.utf8), outputByteCount: 32)
    }
    return (try derive("SKReader"), try derive("SKDevice"))
  }

  /// §9.1.1.5: IV = 8-byte identifier (reader 0, mdoc 1) || 4-byte message counter (from 1).
  static func iv(device: Bool, counter: UInt32) -> [UInt8] {
    [0, 0, 0, 0, 0, 0, 0, device ? 1 : 0]
      + [
        UInt8(counter >> 24), UInt8(counter >> 16 & 0xFF), UInt8(counter >> 8 & 0xFF),
        UInt8(counter & 0xFF),
      ]
  }

  static func open(_ data: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    let tag = AES.GCM.tagByteCount
    let box = try AES.GCM.SealedBox(
      nonce: iv, ciphertext: Array(data.dropLast(tag)), tag: Array(data.suffix(tag)))
    return try AES.GCM.open(box, key: key)
  }

  @Test("SKReader and SKDevice derive as published and decrypt the session messages")
  func sessionEncryption() throws {
    let keys = try sessionKeys()
    #expect(keys.reader == (try field("derived_session_keys", "sk_reader")))
    #expect(keys.device == (try field("derived_session_keys", "sk_device")))

    // SessionEstablishment.data: the DeviceRequest under SKReader, reader counter 1.
    let establishment = try CBOR.decode(try field("session_establishment"))
    let requestCiphertext = try #require(establishment["data"]?.bytes)
    let request = try Self.open(
      requestCiphertext, key: keys.reader, iv: Self.iv(device: false, counter: 1))
    #expect(request == (try field("device_request")))
    // SessionData.data: the DeviceResponse under SKDevice, mdoc counter 1.
    let sessionData = try CBOR.decode(try field("session_data"))
    let responseCiphertext = try #require(sessionData["data"]?.bytes)
    let response = try Self.open(
      responseCiphertext, key: keys.device, iv: Self.iv(device: true, counter: 1))
    #expect(response == (try field("device_response")))
    // Sealing again reproduces the published ciphertext (GCM is deterministic for a given IV).
    #expect(
      try AES.GCM.seal(response, key: keys.device, nonce: Self.iv(device: true, counter: 1))
        .ciphertextAndTag == responseCiphertext)

    // The wrong key, direction or counter does not open.
    let authenticationFailureError = #expect(throws: CryptoError.self) {
      try Self.open(responseCiphertext, key: keys.reader, iv: Self.iv(device: true, counter: 1))
    }
    #expect(authenticationFailureError?.code == .authenticationFailure)
    let authenticationFailureError2 = #expect(throws: CryptoError.self) {
      try Self.open(responseCiphertext, key: keys.device, iv: Self.iv(device: false, counter: 1))
    }
    #expect(authenticationFailureError2?.code == .authenticationFailure)
    let authenticationFailureError3 = #expect(throws: CryptoError.self) {
      try Self.open(responseCiphertext, key: keys.device, iv: Self.iv(device: true, counter: 2))
    }
    #expect(authenticationFailureError3?.code == .authenticationFailure)
    // SessionData {status: 20}: session termination (§9.1.1.4, Table 20).
    #expect(try CBOR.decode(try field("session_termination"))["status"] == 20)
  }

  /// §9.1.3.5: EMacKey = HKDF-SHA-256(ECDH(SDeviceKey, EReaderKey), SHA-256(SessionTranscriptBytes),
  /// "EMacKey"); the deviceMac is HMAC-SHA-256 over MAC_structure (RFC 9052 §6.3).
  @Test("EMacKey, the MAC_structure and the deviceMac tag match the published intermediates")
  func deviceMac() throws {
    let zab = try d.key("s_device_key").sharedSecret(with: try publicKey("e_reader_key"))
    #expect(zab == (try field("e_mac_key_intermediates", "zab")))
    #expect(zab == (try d.key("e_reader_key").sharedSecret(with: try publicKey("s_device_key"))))
    let macKey = try DeviceAuthentication.macKey(
      privateKey: try d.key("s_device_key"), peerKey: try publicKey("e_reader_key"),
      sessionTranscript: try d.transcript)
    #expect(macKey == (try field("e_mac_key_intermediates", "e_mac_key")))

    let response = try DeviceResponse(bytes: try field("device_response"))
    let document = try #require(response.documents.first)
    #expect(document.deviceSigned.cbor["deviceAuth"] == (try CBOR.decode(try field("device_auth"))))
    guard case .mac(let mac0) = document.deviceSigned.deviceAuth else {
      Issue.record("Annex D authenticates the device with a MAC")
      return
    }
    let structure = COSEMac0.toBeMACed(
      protectedBytes: mac0.headers.bodyProtected, externalAAD: [],
      payload: try field("device_authentication_bytes"))
    #expect(structure == (try field("device_mac_structure")))
    let tag = HMAC.authenticationCode(.sha256, for: structure, key: macKey)
    #expect(tag == (try field("e_mac_key_intermediates", "mac_tag")))
    #expect(mac0.mac == tag)
    // A MAC keyed by another reader key does not verify.
    let otherKey = try DeviceAuthentication.macKey(
      privateKey: try d.key("s_device_key"), peerKey: try publicKey("e_device_key"),
      sessionTranscript: try d.transcript)
    let invalidDeviceSignatureError = #expect(throws: MdocError.self) {
      try document.verifyDeviceAuthentication(
        sessionTranscript: try d.transcript, deviceKey: try publicKey("s_device_key")
      ) { () throws(MdocError) in otherKey }
    }
    #expect(invalidDeviceSignatureError?.code == .invalidDeviceSignature)
  }

  /// RFC 9052 §4.4: Sig_structure = ["Signature1", protected, external_aad, payload].
  @Test("The issuerAuth and readerAuth Sig_structures are the published ones")
  func signatureStructures() throws {
    let response = try DeviceResponse(bytes: try field("device_response"))
    let issuerAuth = try #require(response.documents.first).issuerSigned.issuerAuth
    let issuerStructure = COSESign1.toBeSigned(
      protectedBytes: issuerAuth.headers.bodyProtected, externalAAD: [],
      payload: try #require(issuerAuth.payload))
    #expect(issuerStructure == (try field("issuer_auth_sig_structure")))

    let readerAuth = try COSESign1(bytes: try field("reader_auth"))
    let request = try DeviceRequest(bytes: try field("device_request"))
    #expect(request.docRequests.first?.readerAuth == readerAuth)
    let readerStructure = COSESign1.toBeSigned(
      protectedBytes: readerAuth.headers.bodyProtected, externalAAD: [],
      payload: try field("reader_authentication_bytes"))
    #expect(readerStructure == (try field("reader_auth_sig_structure")))
    // The reader certificate's key verifies the signature over exactly that structure.
    let readerKey = try #require(try d.certificate("reader_der").publicKey.ecPublicKey)
    let signature = try ECDSASignature(rawRepresentation: readerAuth.signature, curve: .p256)
    #expect(readerKey.isValidSignature(signature, for: readerStructure))
  }
}
