import DCCBOR
import DCCrypto
import DCMdoc
import DCMdocProximity
import DCTestSupport
import Foundation
import Testing

/// The session-layer values of the ISO 18013-5 Annex D worked example.
struct AnnexDSession {
  let json: [String: Any]

  init() throws {
    json = try VectorFile.object("iso18013-5-annex-d-session", in: .module)
  }

  func hex(_ key: String) throws -> [UInt8] { hexBytes(try #require(json[key] as? String)) }

  func derived(_ key: String) throws -> [UInt8] {
    let keys = try #require(json["derived_session_keys"] as? [String: String])
    return hexBytes(try #require(keys[key]))
  }

  func key(_ name: String) throws -> ECPrivateKey {
    let keys = try #require(json["keys"] as? [String: [String: String]])
    return try ECPrivateKey(
      rawRepresentation: hexBytes(try #require(keys[name]?["d"])), curve: .p256)
  }

  /// The NFC static handover engagement that the Annex D transcript holds.
  var nfcEngagement: DeviceEngagement {
    get throws { try DeviceEngagement(bytes: hex("session_transcript_device_engagement")) }
  }

  var handover: CBOR {
    get throws {
      Handover.nfc(
        handoverSelect: try hex("nfc_handover_select"),
        handoverRequest: try hex("nfc_handover_request"))
    }
  }
}

@Suite("ISO 18013-5 Annex D: engagement and session")
struct AnnexDSessionTests {
  let annex: AnnexDSession

  init() throws { annex = try AnnexDSession() }

  @Test("The QR DeviceEngagement reads and is rebuilt byte for byte (D.3.1)")
  func deviceEngagement() throws {
    let bytes = try annex.hex("device_engagement")
    let engagement = try DeviceEngagement(bytes: bytes)
    #expect(engagement.version == "1.0")
    #expect(engagement.eDeviceKey == (try annex.key("e_device_key")).publicKey)
    #expect(engagement.eDeviceKeyBytes.tagValue?.bytes.map { _ in true } == true)
    #expect(
      CBOREncoder().encode(engagement.eDeviceKeyBytes) == (try annex.hex("e_device_key_bytes")))
    let ble = try #require(engagement.bleOptions)
    #expect(!ble.supportsPeripheralServerMode)
    #expect(ble.supportsCentralClientMode)
    #expect(ble.centralClientUUID == hexBytes("45efef742b2c4837a9a3b0e1d05a6917"))
    #expect(engagement.originInfos.isEmpty)
    #expect(engagement.additionalEntries.isEmpty)
    #expect(engagement.bytes == bytes)

    let rebuilt = DeviceEngagement(
      eDeviceKey: engagement.eDeviceKey,
      retrievalMethods: [.ble(try BLEOptions(centralClientUUID: ble.centralClientUUID))])
    #expect(rebuilt.bytes == bytes)
  }

  @Test("The mdoc: URI carries the engagement's bytes both ways (§8.2.2.3)")
  func uri() throws {
    let bytes = try annex.hex("device_engagement")
    let engagement = try DeviceEngagement(bytes: bytes)
    let uri = engagement.uri
    #expect(uri.hasPrefix("mdoc:owBjMS4w"))
    #expect(!uri.contains("="))
    #expect(try DeviceEngagement(uri: uri).bytes == bytes)
    #expect(try DeviceEngagement(uri: "MDOC:" + uri.dropFirst(5)).bytes == bytes)
  }

  @Test("The NFC engagement (version and Security only) is rebuilt byte for byte")
  func nfcEngagement() throws {
    let engagement = try annex.nfcEngagement
    #expect(engagement.retrievalMethods.isEmpty)
    #expect(
      DeviceEngagement(eDeviceKey: engagement.eDeviceKey).bytes
        == (try annex.hex("session_transcript_device_engagement")))
  }

  @Test("SessionTranscript with the NFC handover is the Annex D SessionTranscriptBytes (§9.1.5.1)")
  func transcript() throws {
    let establishment = try SessionEstablishment(bytes: annex.hex("session_establishment"))
    #expect(establishment.eReaderKey == (try annex.key("e_reader_key")).publicKey)
    let transcript = SessionTranscript(
      deviceEngagementBytes: try annex.nfcEngagement.deviceEngagementBytes,
      eReaderKeyBytes: establishment.eReaderKeyBytes, handover: try annex.handover)
    #expect(transcript.taggedBytes == (try annex.hex("session_transcript_bytes")))
  }

  @Test("SKReader and SKDevice (§9.1.1.5)")
  func sessionKeys() throws {
    let transcript = try SessionTranscript(taggedBytes: annex.hex("session_transcript_bytes"))
    let keys = try SessionKeys(
      privateKey: annex.key("e_device_key"),
      peerPublicKey: annex.key("e_reader_key").publicKey, transcript: transcript)
    #expect(keys.skReader == (try annex.derived("sk_reader")))
    #expect(keys.skDevice == (try annex.derived("sk_device")))
    let fromReader = try SessionKeys(
      privateKey: annex.key("e_reader_key"),
      peerPublicKey: annex.key("e_device_key").publicKey, transcript: transcript)
    #expect(fromReader.skReader == keys.skReader)
    #expect(fromReader.skDevice == keys.skDevice)
    #expect(
      (try SessionKeys(sharedSecret: annex.derived("zab"), transcript: transcript)).skDevice
        == keys.skDevice)
  }

  @Test("The holder reads the SessionEstablishment and answers the Annex D SessionData")
  func holder() throws {
    var holder = try HolderSession(
      deviceEngagement: annex.nfcEngagement, eDeviceKey: annex.key("e_device_key"),
      handover: annex.handover)
    #expect(holder.state == .awaitingEstablishment)
    let event = try holder.receive(annex.hex("session_establishment"))
    #expect(event == .message(try annex.hex("device_request")))
    #expect(holder.transcript?.taggedBytes == (try annex.hex("session_transcript_bytes")))
    #expect(holder.state == .established)
    #expect(try holder.send(response: annex.hex("device_response")) == annex.hex("session_data"))
    #expect(holder.terminate() == (try annex.hex("session_termination")))
    #expect(holder.state == .closed)
  }

  @Test("The reader sends the Annex D SessionEstablishment and reads the SessionData")
  func reader() throws {
    var reader = try ReaderSession(
      deviceEngagement: annex.nfcEngagement, handover: annex.handover,
      eReaderKey: annex.key("e_reader_key"))
    #expect(reader.transcript.taggedBytes == (try annex.hex("session_transcript_bytes")))
    #expect(
      try reader.send(request: annex.hex("device_request")) == annex.hex("session_establishment"))
    #expect(try reader.receive(annex.hex("session_data")) == .message(annex.hex("device_response")))
    #expect(reader.terminate() == (try annex.hex("session_termination")))
  }

  @Test("The session messages read and keep their bytes (§9.1.1.4)")
  func messages() throws {
    let establishment = try SessionEstablishment(bytes: annex.hex("session_establishment"))
    #expect(
      SessionEstablishment(eReaderKey: establishment.eReaderKey, data: establishment.data).bytes
        == (try annex.hex("session_establishment")))
    let data = try SessionData(bytes: annex.hex("session_data"))
    #expect(data.status == nil)
    #expect(SessionData(data: try #require(data.data)).bytes == (try annex.hex("session_data")))
    let termination = try SessionData(bytes: annex.hex("session_termination"))
    #expect(termination.status == .sessionTermination)
    #expect(termination.data == nil)
    #expect(
      SessionData(status: .sessionTermination).bytes == (try annex.hex("session_termination")))
  }
}
