import DCCBOR
import DCCrypto
import DCMdoc
import DCMdocProximity

// MARK: - ISO 18013-5 proximity session (issue 14)

/// The Annex D ephemeral keys, NFC engagement and handover messages, so the Annex D
/// SessionEstablishment and SessionData seeds decrypt (ISO 18013-5 Annex D).
enum ProximityFixture {
  static func key(_ hex: String) -> ECPrivateKey {
    guard let key = try? ECPrivateKey(rawRepresentation: bytes(hex), curve: .p256) else {
      violated("the Annex D key does not load")
    }
    return key
  }

  static func bytes(_ hex: String) -> [UInt8] {
    var out: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      guard let byte = UInt8(hex[index..<next], radix: 16) else { violated("bad fixture hex") }
      out.append(byte)
      index = next
    }
    return out
  }

  static let eDeviceKey = key("c1917a1579949a042f1ba9fc53a2df9b1bc47adf31c10f813ed75702d1c1f136")
  static let eReaderKey = key("de3b4b9e5f72dd9b58406ae3091434da48a6f9fd010d88fcb0958e2cebec947c")
  static let engagement = DeviceEngagement(eDeviceKey: eDeviceKey.publicKey)
  static let handoverSelect: [UInt8] = {
    guard
      let ble = try? BLECarrierConfiguration(
        leRole: .centralOnly, serviceUUID: nil, deviceAddress: bytes("28128b37282801")),
      let select = try? HandoverSelect.staticHandover(deviceEngagement: engagement, ble: ble)
    else { violated("the Annex D Handover Select does not build") }
    return select.bytes
  }()
  static let handoverRequest = bytes(
    "91022548721591020263720102110204616301013000110206616301036e6663005102046163010157001a201e016170706c69636174696f6e2f766e642e626c7565746f6f74682e6c652e6f6f6230081b28078080bf2801021c021107c832fff6d26fa0beb34dfcd555d4823a1c11010369736f2e6f72673a31383031333a6e66636e6663015a172b016170706c69636174696f6e2f766e642e7766612e6e616e57030101032302001324fec9a70b97ac9684a4e326176ef5b981c5e8533e5f00298cfccbc35e700a6b020414"
  )
  static let handover = Handover.nfc(
    handoverSelect: handoverSelect, handoverRequest: handoverRequest)

  static func holder() -> HolderSession {
    guard
      let holder = try? HolderSession(
        deviceEngagement: engagement, eDeviceKey: eDeviceKey, handover: handover)
    else { violated("the holder session does not start") }
    return holder
  }

  static func reader() -> ReaderSession {
    guard
      let reader = try? ReaderSession(
        deviceEngagement: engagement, handover: handover, eReaderKey: eReaderKey)
    else { violated("the reader session does not start") }
    return reader
  }
}

/// The rules every failed receive keeps: the session is closed, and a status is answered unless
/// the other side already ended the session (ISO 18013-5 §9.1.1.4).
func checkFailure(_ error: MdocProximityError, state: SessionState) {
  if state != .closed { violated("a failed receive left the session open: \(error)") }
  let silent: Set<MdocProximityErrorCode> = [.unknownStatus, .peerReportedError, .sessionClosed]
  if silent.contains(error.code) != (error.status == nil) {
    violated("\(error.code) answered with status \(String(describing: error.status))")
  }
  if let status = error.status, status == .sessionTermination {
    violated("a failure answered with status 20")
  }
}

/// DeviceEngagement bytes, read as a reader does: round trip, URI, a session's transcript.
@Sendable func fuzzDeviceEngagement(_ bytes: [UInt8]) {
  guard let engagement = try? DeviceEngagement(bytes: bytes) else { return }
  if engagement.bytes != bytes { violated("DeviceEngagement did not keep its bytes") }
  guard let again = try? DeviceEngagement(uri: engagement.uri), again.bytes == bytes else {
    violated("DeviceEngagement's mdoc: URI does not read back")
  }
  if engagement.version == "1.0", engagement.additionalEntries.isEmpty,
    (try? CBORDecoder().decodeReportingDeterminism(bytes).isDeterministic) == true
  {
    let rebuilt = DeviceEngagement(
      eDeviceKey: engagement.eDeviceKey, retrievalMethods: engagement.retrievalMethods)
    if let reread = try? DeviceEngagement(bytes: rebuilt.bytes),
      reread.retrievalMethods != engagement.retrievalMethods
    {
      violated("DeviceEngagement rebuilt from its values reads differently")
    }
  }
  _ = engagement.bleOptions
  _ = try? ReaderSession(deviceEngagement: engagement, handover: Handover.qr).transcript
}

/// `mdoc:` URIs as a reader reads them from a QR code.
@Sendable func fuzzMdocURI(_ bytes: [UInt8]) {
  guard let text = text(bytes), let engagement = try? DeviceEngagement(uri: text) else { return }
  guard let again = try? DeviceEngagement(uri: engagement.uri), again == engagement else {
    violated("an mdoc: URI does not read back")
  }
}

/// SessionEstablishment bytes received by the holder (the Annex D session).
@Sendable func fuzzSessionEstablishment(_ bytes: [UInt8]) {
  if let message = try? SessionEstablishment(bytes: bytes) {
    if message.bytes != bytes { violated("SessionEstablishment did not keep its bytes") }
  }
  var holder = ProximityFixture.holder()
  do {
    let event = try holder.receive(bytes)
    switch event {
    case .message:
      if holder.transcript == nil || holder.state != .established {
        violated("an established holder has no transcript")
      }
      guard (try? holder.send(response: [0xA0])) != nil else {
        violated("an established holder cannot answer")
      }
    case .terminated:
      if holder.state != .closed { violated("a terminated holder is open") }
    case .finalMessage:
      violated("a SessionEstablishment read as a final message")
    }
  } catch {
    checkFailure(error, state: holder.state)
  }
}

/// SessionData bytes received by both roles in an established Annex D session.
@Sendable func fuzzSessionData(_ bytes: [UInt8]) {
  if let message = try? SessionData(bytes: bytes) {
    if message.bytes != bytes { violated("SessionData did not keep its bytes") }
    if message.data == nil, message.status == nil { violated("SessionData with nothing read") }
  }
  var reader = ProximityFixture.reader()
  var holder = ProximityFixture.holder()
  guard let establishment = try? reader.send(request: [0xA0]),
    (try? holder.receive(establishment)) == .message([0xA0])
  else { violated("the Annex D session does not establish") }
  do {
    _ = try holder.receive(bytes)
  } catch {
    checkFailure(error, state: holder.state)
  }
  do {
    switch try reader.receive(bytes) {
    case .message:
      if reader.state != .established { violated("a reader that read a response is not open") }
    case .finalMessage, .terminated:
      if reader.state != .closed { violated("a terminated reader is open") }
    }
  } catch {
    checkFailure(error, state: reader.state)
  }
}

/// NFC handover messages: the reader reads a Handover Select, the holder a Handover Request.
@Sendable func fuzzNFCHandover(_ bytes: [UInt8]) {
  if let message = try? NDEFMessage(bytes: bytes) {
    guard let written = try? NDEFMessage(records: message.records),
      let reread = try? NDEFMessage(bytes: written.bytes), reread.records == message.records
    else { violated("an NDEF message does not write back to the same records") }
  }
  if let select = try? HandoverSelect(bytes: bytes) {
    if select.bytes != bytes { violated("Handover Select did not keep its bytes") }
    _ = try? select.bleConfiguration()?.serviceUUIDs
    if let engagement = try? select.deviceEngagement() {
      _ = try? ReaderSession(
        deviceEngagement: engagement,
        handover: Handover.nfc(handoverSelect: bytes, handoverRequest: nil)
      ).transcript
    }
  }
  if let request = try? HandoverRequest(bytes: bytes) {
    if request.bytes != bytes { violated("Handover Request did not keep its bytes") }
    guard
      let rebuilt = try? HandoverRequest(
        collisionResolution: request.collisionResolution,
        alternativeCarriers: request.alternativeCarriers, records: request.records),
      (try? HandoverRequest(bytes: rebuilt.bytes))?.alternativeCarriers
        == request.alternativeCarriers
    else { violated("a Handover Request does not rebuild") }
    _ = try? request.bleConfiguration()?.leRole
  }
}
