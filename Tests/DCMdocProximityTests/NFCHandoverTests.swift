import DCCBOR
import DCCrypto
import DCMdoc
import DCMdocProximity
import DCTestSupport
import Testing

@Suite("NFC handover messages (ISO 18013-5 §8.2.2.1, NFC Forum Connection Handover 1.5)")
struct NFCHandoverTests {
  let annex: AnnexDSession

  init() throws { annex = try AnnexDSession() }

  @Test("The Annex D Handover Select reads: one active carrier, BLE record, DeviceEngagement")
  func readsHandoverSelect() throws {
    let bytes = try annex.hex("nfc_handover_select")
    let select = try HandoverSelect(bytes: bytes)
    #expect(select.version == 0x15)
    #expect(select.bytes == bytes)
    let carrier = try #require(select.alternativeCarriers.first)
    #expect(select.alternativeCarriers.count == 1)
    #expect(carrier.powerState == .active)
    #expect(carrier.carrierDataReference == Array("0".utf8))
    #expect(carrier.auxiliaryDataReferences == [Array("mdoc".utf8)])
    #expect(select.records.count == 2)
    #expect(
      try select.deviceEngagement().bytes
        == annex.hex("session_transcript_device_engagement"))
    let ble = try #require(try select.bleConfiguration())
    #expect(ble.leRole == .centralOnly)
    #expect(ble.deviceAddress == hexBytes("28128b37282801"))
    #expect(ble.serviceUUIDs.isEmpty)
  }

  @Test("The static handover is rebuilt byte for byte from the engagement and the BLE carrier")
  func buildsHandoverSelect() throws {
    let select = try HandoverSelect.staticHandover(
      deviceEngagement: annex.nfcEngagement,
      ble: BLECarrierConfiguration(
        leRole: .centralOnly, serviceUUID: nil, deviceAddress: hexBytes("28128b37282801")))
    #expect(select.bytes == (try annex.hex("nfc_handover_select")))
    #expect(
      try NDEFMessage(records: NDEFMessage(bytes: select.bytes).records).bytes == select.bytes)
  }

  @Test("The Annex D Handover Request reads and is rebuilt byte for byte")
  func handoverRequest() throws {
    let bytes = try annex.hex("nfc_handover_request")
    let request = try HandoverRequest(bytes: bytes)
    #expect(request.version == 0x15)
    #expect(request.collisionResolution == 0x0102)
    #expect(
      request.alternativeCarriers.map(\.carrierDataReference)
        == ["0", "nfc", "W"].map {
          Array($0.utf8)
        })
    #expect(request.records.count == 3)
    let ble = try #require(try request.bleConfiguration())
    #expect(ble.leRole == .peripheralPreferred)
    #expect(ble.serviceUUIDs == [hexBytes("3a82d455d5fc4db3bea06fd2f6ff32c8")])
    #expect(ble.deviceAddress == hexBytes("28078080bf2801"))
    #expect(
      try BLECarrierConfiguration(structures: ble.structures).payload
        == BLECarrierConfiguration(
          leRole: .peripheralPreferred, serviceUUID: hexBytes("3a82d455d5fc4db3bea06fd2f6ff32c8"),
          deviceAddress: hexBytes("28078080bf2801")
        ).payload)
    let rebuilt = try HandoverRequest(
      collisionResolution: request.collisionResolution,
      alternativeCarriers: request.alternativeCarriers, records: request.records)
    #expect(rebuilt.bytes == bytes)
  }

  @Test("The NFC SessionTranscript Handover is [HandoverSelect, HandoverRequest or null]")
  func transcriptHandover() throws {
    let select = try annex.hex("nfc_handover_select")
    #expect(
      Handover.nfc(handoverSelect: select, handoverRequest: nil)
        == .array([.byteString(select), .null]))
    #expect(Handover.qr == .null)
  }

  @Test("A reader from the Annex D Hs and Hr has the Annex D transcript and SessionEstablishment")
  func readerFromHandover() throws {
    var reader = try ReaderSession(
      handoverSelect: HandoverSelect(bytes: annex.hex("nfc_handover_select")),
      handoverRequest: HandoverRequest(bytes: annex.hex("nfc_handover_request")),
      eReaderKey: annex.key("e_reader_key"))
    #expect(reader.transcript.taggedBytes == (try annex.hex("session_transcript_bytes")))
    #expect(
      try reader.send(request: annex.hex("device_request")) == annex.hex("session_establishment"))
  }

  @Test("The holder's NFC static handover carries its engagement to a reader")
  func holderStaticHandover() throws {
    let ble = try BLECarrierConfiguration(
      leRole: .peripheralOnly, serviceUUID: [UInt8](repeating: 0x11, count: 16))
    var (holder, select) = try HolderSession.nfcStaticHandover(ble: ble)
    #expect(holder.deviceEngagement.retrievalMethods.isEmpty)
    #expect(holder.handover == Handover.nfc(handoverSelect: select.bytes, handoverRequest: nil))
    var reader = try ReaderSession(handoverSelect: HandoverSelect(bytes: select.bytes))
    #expect(try holder.receive(reader.send(request: [4])) == .message([4]))
    #expect(holder.transcript == reader.transcript)
    #expect(try reader.receive(holder.send(response: [5])) == .message([5]))
  }

  @Test("A holder and a reader agree through a static handover built here")
  func staticHandoverSession() throws {
    let engagementKey = try annex.key("e_device_key")
    let engagement = DeviceEngagement(eDeviceKey: engagementKey.publicKey)
    let ble = try BLECarrierConfiguration(
      leRole: .peripheralOnly, serviceUUID: hexBytes("00112233445566778899aabbccddeeff"))
    let select = try HandoverSelect.staticHandover(deviceEngagement: engagement, ble: ble)
    let handover = Handover.nfc(handoverSelect: select.bytes, handoverRequest: nil)
    var holder = try HolderSession(
      deviceEngagement: engagement, eDeviceKey: engagementKey, handover: handover)

    let read = try HandoverSelect(bytes: select.bytes)
    #expect(
      try read.bleConfiguration()?.serviceUUIDs == [hexBytes("00112233445566778899aabbccddeeff")])
    var reader = try ReaderSession(
      deviceEngagement: read.deviceEngagement(),
      handover: Handover.nfc(handoverSelect: read.bytes, handoverRequest: nil))
    #expect(try holder.receive(reader.send(request: [1, 2, 3])) == .message([1, 2, 3]))
    #expect(holder.transcript == reader.transcript)
  }
}

@Suite("NDEF and Connection Handover refusals")
struct NDEFRefusalTests {
  /// A short well-known record `T` with payload `p`, flagged MB and ME.
  static let single: [UInt8] = [0xD1, 0x01, 0x01, 0x54, 0x70]

  @Test("A well-formed message reads and writes back, long payloads in the 4-byte form")
  func roundTrip() throws {
    #expect(try NDEFMessage(bytes: Self.single).records.first?.payload == [0x70])
    let long = try NDEFRecord(
      .media, type: "a/b", id: "x", payload: Array(repeating: 7, count: 300))
    let message = try NDEFMessage(records: [long, NDEFRecord(.external, type: "e:t")])
    #expect(message.bytes[0] == 0x8A)  // MB, IL, TNF 2; no SR
    #expect(Array(message.bytes[2...5]) == [0, 0, 1, 0x2C])
    #expect(try NDEFMessage(bytes: message.bytes).records == message.records)
  }

  @Test(
    "Malformed NDEF messages are refused",
    arguments: [
      ([0xF1, 0x01, 0x01, 0x54, 0x70], "chunk flag"),
      ([0xD6, 0x01, 0x01, 0x54, 0x70], "TNF 6"),
      ([0xD7, 0x01, 0x01, 0x54, 0x70], "TNF 7"),
      ([0x51, 0x01, 0x01, 0x54, 0x70], "no MB"),
      ([0x91, 0x01, 0x01, 0x54, 0x70], "no ME"),
      ([0x91, 0x01, 0x01, 0x54, 0x70, 0xD1, 0x01, 0x01, 0x54, 0x70], "MB twice"),
      ([0xD1, 0x01, 0x01, 0x54, 0x70, 0x00], "trailing byte"),
      ([0xD1, 0x01, 0x02, 0x54, 0x70], "payload past the end"),
      ([0xC1, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x54], "long payload past the end"),
      ([0xD9, 0x01, 0x01, 0x05, 0x54, 0x70], "id past the end"),
      ([0xD0, 0x00, 0x01, 0x70], "empty record with payload"),
      ([0xD5, 0x01, 0x01, 0x54, 0x70], "unknown TNF with a type"),
      ([], "no bytes"),
    ] as [([UInt8], String)])
  func refused(bytes: [UInt8], what: String) {
    let malformedNDEFError = #expect(throws: MdocProximityError.self, "\(what)") {
      try NDEFMessage(bytes: bytes)
    }
    #expect(malformedNDEFError?.code == .malformedNDEF)
    do {
      _ = try NDEFMessage(bytes: bytes)
    } catch {
      #expect(error.code == .malformedNDEF, "\(what)")
    }
  }

  @Test("Messages past the size and record bounds are refused")
  func bounds() throws {
    let record: [UInt8] = [0x11, 0x01, 0x00, 0x54]  // SR, TNF 1, no payload
    var many: [UInt8] = []
    for index in 0..<(NDEFMessage.maxRecordCount + 1) {
      var header = record[0]
      if index == 0 { header |= 0x80 }
      if index == NDEFMessage.maxRecordCount { header |= 0x40 }
      many += [header] + record.dropFirst()
    }
    let tooLargeError = #expect(throws: MdocProximityError.self) { try NDEFMessage(bytes: many) }
    #expect(tooLargeError?.code == .tooLarge)
    var atLimit: [UInt8] = []
    for index in 0..<NDEFMessage.maxRecordCount {
      var header = record[0]
      if index == 0 { header |= 0x80 }
      if index == NDEFMessage.maxRecordCount - 1 { header |= 0x40 }
      atLimit += [header] + record.dropFirst()
    }
    #expect(try NDEFMessage(bytes: atLimit).records.count == NDEFMessage.maxRecordCount)
    do {
      _ = try NDEFMessage(bytes: many)
    } catch {
      #expect(error.code == .tooLarge)
    }
    let big = [UInt8](repeating: 0, count: NDEFMessage.maxByteCount + 1)
    #expect(
      throws: MdocProximityError(
        .tooLarge, "NDEF message of 65536 bytes exceeds the limit of 65535")
    ) {
      try NDEFMessage(bytes: big)
    }
    let tooLargeError2 = #expect(throws: MdocProximityError.self) {
      try NDEFMessage(records: [NDEFRecord(.media, type: "a/b", payload: big)])
    }
    #expect(tooLargeError2?.code == .tooLarge)
  }

  @Test("Handover records that break Connection Handover are refused")
  func handoverRefusals() throws {
    // A message whose first record is not Hs / Hr.
    let malformedNDEFError = #expect(throws: MdocProximityError.self) {
      try HandoverSelect(bytes: Self.single)
    }
    #expect(malformedNDEFError?.code == .malformedNDEF)
    let malformedNDEFError2 = #expect(throws: MdocProximityError.self) {
      try HandoverRequest(bytes: Self.single)
    }
    #expect(malformedNDEFError2?.code == .malformedNDEF)
    // A well-formed Hr read as a Handover Select, and an Hr payload under the type Hs.
    let offer = try AlternativeCarrier(carrierDataReference: "0")
    let local = try NDEFMessage(records: [
      NDEFRecord(.wellKnown, type: "cr", payload: [1, 2]), offer.record,
    ]).bytes
    let asHr = try NDEFMessage(records: [
      NDEFRecord(.wellKnown, type: "Hr", payload: [0x15] + local)
    ])
    #expect(try HandoverRequest(bytes: asHr.bytes).alternativeCarriers == [offer])
    let malformedNDEFError3 = #expect(throws: MdocProximityError.self) {
      try HandoverSelect(bytes: asHr.bytes)
    }
    #expect(malformedNDEFError3?.code == .malformedNDEF)
    let asHs = try NDEFMessage(records: [
      NDEFRecord(.wellKnown, type: "Hs", payload: [0x15] + local)
    ])
    #expect(try HandoverSelect(bytes: asHs.bytes).alternativeCarriers == [offer])
    let malformedNDEFError4 = #expect(throws: MdocProximityError.self) {
      try HandoverRequest(bytes: asHs.bytes)
    }
    #expect(malformedNDEFError4?.code == .malformedNDEF)
    // Hs version 2.0.
    let hs2 = try NDEFMessage(records: [NDEFRecord(.wellKnown, type: "Hs", payload: [0x20])])
    let malformedNDEFError5 = #expect(throws: MdocProximityError.self) {
      try HandoverSelect(bytes: hs2.bytes)
    }
    #expect(malformedNDEFError5?.code == .malformedNDEF)
    // An Hs record with no carriers reads; it has no engagement.
    let empty = try HandoverSelect(
      bytes: NDEFMessage(records: [NDEFRecord(.wellKnown, type: "Hs", payload: [0x15])]).bytes)
    #expect(empty.alternativeCarriers.isEmpty)
    let malformedNDEFError6 = #expect(throws: MdocProximityError.self) {
      try empty.deviceEngagement()
    }
    #expect(malformedNDEFError6?.code == .malformedNDEF)
    // An Hr record without a cr record.
    let carrier = try AlternativeCarrier(carrierDataReference: "0")
    let hrNoCR = try NDEFMessage(records: [
      NDEFRecord(
        .wellKnown, type: "Hr", payload: [0x15] + NDEFMessage(records: [carrier.record]).bytes)
    ])
    let malformedNDEFError7 = #expect(throws: MdocProximityError.self) {
      try HandoverRequest(bytes: hrNoCR.bytes)
    }
    #expect(malformedNDEFError7?.code == .malformedNDEF)
    // An ac record cut short, or with bytes after it.
    let malformedNDEFError8 = #expect(throws: MdocProximityError.self) {
      try AlternativeCarrier(payload: [0x01, 0x02, 0x30])
    }
    #expect(malformedNDEFError8?.code == .malformedNDEF)
    let malformedNDEFError9 = #expect(throws: MdocProximityError.self) {
      try AlternativeCarrier(payload: [0x01, 0x01, 0x30, 0x00, 0x00])
    }
    #expect(malformedNDEFError9?.code == .malformedNDEF)
    let malformedNDEFError10 = #expect(throws: MdocProximityError.self) {
      try AlternativeCarrier(payload: [0x01, 0x00, 0x00])
    }
    #expect(malformedNDEFError10?.code == .malformedNDEF)
    // BLE OOB data: an empty AD structure, one past the end.
    let malformedNDEFError11 = #expect(throws: MdocProximityError.self) {
      try BLECarrierConfiguration(payload: [0x00, 0x1C])
    }
    #expect(malformedNDEFError11?.code == .malformedNDEF)
    let malformedNDEFError12 = #expect(throws: MdocProximityError.self) {
      try BLECarrierConfiguration(payload: [0x03, 0x1C, 0x00])
    }
    #expect(malformedNDEFError12?.code == .malformedNDEF)
    #expect(try BLECarrierConfiguration(payload: [0x02, 0x1C, 0x00]).leRole == .peripheralOnly)
    // Hs and Hr records without a version byte; Hr version 2.
    for type in ["Hs", "Hr"] {
      let noVersion = try NDEFMessage(records: [NDEFRecord(.wellKnown, type: type)]).bytes
      let malformedNDEFError13 = #expect(throws: MdocProximityError.self) {
        try HandoverSelect(bytes: noVersion)
      }
      #expect(malformedNDEFError13?.code == .malformedNDEF)
      let malformedNDEFError14 = #expect(throws: MdocProximityError.self) {
        try HandoverRequest(bytes: noVersion)
      }
      #expect(malformedNDEFError14?.code == .malformedNDEF)
    }
    let cr = try NDEFRecord(.wellKnown, type: "cr", payload: [1, 2])
    func hr(_ version: UInt8, _ local: [NDEFRecord]) throws -> [UInt8] {
      try NDEFMessage(records: [
        NDEFRecord(.wellKnown, type: "Hr", payload: [version] + NDEFMessage(records: local).bytes)
      ]).bytes
    }
    #expect(
      try HandoverRequest(bytes: hr(0x15, [cr, carrier.record])).collisionResolution == 0x0102)
    let malformedNDEFError15 = #expect(throws: MdocProximityError.self) {
      try HandoverRequest(bytes: hr(0x25, [cr, carrier.record]))
    }
    #expect(malformedNDEFError15?.code == .malformedNDEF)
    let malformedNDEFError16 = #expect(throws: MdocProximityError.self) {
      try HandoverRequest(bytes: hr(0x15, [cr, cr, carrier.record]))
    }
    #expect(malformedNDEFError16?.code == .malformedNDEF)
    let malformedNDEFError17 = #expect(throws: MdocProximityError.self) {
      try HandoverRequest(
        bytes: hr(0x15, [NDEFRecord(.wellKnown, type: "cr", payload: [1]), carrier.record]))
    }
    #expect(malformedNDEFError17?.code == .malformedNDEF)
    let malformedNDEFError18 = #expect(throws: MdocProximityError.self) {
      try HandoverRequest(bytes: hr(0x15, [cr]))
    }
    #expect(malformedNDEFError18?.code == .malformedNDEF)
    let malformedNDEFError19 = #expect(throws: MdocProximityError.self) {
      try HandoverRequest(collisionResolution: 1, alternativeCarriers: [], records: [])
    }
    #expect(malformedNDEFError19?.code == .malformedNDEF)
  }

  @Test("Writers refuse what the formats cannot hold")
  func writerBounds() throws {
    let long = [UInt8](repeating: 0x61, count: 256)
    let malformedNDEFError = #expect(throws: MdocProximityError.self) {
      try NDEFRecord(typeNameFormat: .media, type: long)
    }
    #expect(malformedNDEFError?.code == .malformedNDEF)
    let malformedNDEFError2 = #expect(throws: MdocProximityError.self) {
      try NDEFRecord(typeNameFormat: .media, type: [0x61], id: long)
    }
    #expect(malformedNDEFError2?.code == .malformedNDEF)
    #expect(try NDEFRecord(typeNameFormat: .media, type: Array(long.dropFirst())).type.count == 255)
    let malformedNDEFError3 = #expect(throws: MdocProximityError.self) {
      try NDEFMessage(records: [])
    }
    #expect(malformedNDEFError3?.code == .malformedNDEF)
    let malformedNDEFError4 = #expect(throws: MdocProximityError.self) {
      try AlternativeCarrier(carrierDataReference: String(repeating: "a", count: 256))
    }
    #expect(malformedNDEFError4?.code == .malformedNDEF)
    let malformedNDEFError5 = #expect(throws: MdocProximityError.self) {
      try AlternativeCarrier(
        carrierDataReference: "0", auxiliaryDataReferences: Array(repeating: "m", count: 256))
    }
    #expect(malformedNDEFError5?.code == .malformedNDEF)
    #expect(
      try AlternativeCarrier(
        carrierDataReference: "0", auxiliaryDataReferences: Array(repeating: "m", count: 255)
      )
      .auxiliaryDataReferences.count == 255)
    let malformedNDEFError6 = #expect(throws: MdocProximityError.self) {
      try BLECarrierConfiguration.ADStructure(type: 1, data: [UInt8](repeating: 0, count: 255))
    }
    #expect(malformedNDEFError6?.code == .malformedNDEF)
    let malformedNDEFError7 = #expect(throws: MdocProximityError.self) {
      try BLECarrierConfiguration(leRole: .peripheralOnly, serviceUUID: [1], deviceAddress: nil)
    }
    #expect(malformedNDEFError7?.code == .malformedNDEF)
    let malformedNDEFError8 = #expect(throws: MdocProximityError.self) {
      try BLECarrierConfiguration(
        leRole: .peripheralOnly, serviceUUID: nil, deviceAddress: [1, 2, 3, 4, 5, 6])
    }
    #expect(malformedNDEFError8?.code == .malformedNDEF)
  }
}
