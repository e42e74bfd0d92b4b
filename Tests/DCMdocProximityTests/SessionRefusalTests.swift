import DCCBOR
import DCCrypto
import DCMdoc
import DCTestSupport
import Testing

@testable import DCMdocProximity

/// A holder and a reader over a fresh QR engagement.
struct Pair {
  var holder: HolderSession
  var reader: ReaderSession

  init(limits: SessionLimits = .default) throws {
    let uuid = [UInt8](repeating: 0xAB, count: 16)
    holder = try HolderSession.qr(
      retrievalMethods: [.ble(BLEOptions(peripheralServerUUID: uuid))], limits: limits)
    reader = try ReaderSession(uri: holder.uri)
  }

  /// Establishes the session with a first request, checked.
  mutating func establish() throws {
    #expect(try holder.receive(reader.send(request: [0xA0])) == .message([0xA0]))
  }
}

@Suite("Session refusals (ISO 18013-5 §9.1.1.4, §9.1.1.5)")
struct SessionRefusalTests {
  static let status10: [UInt8] = [0xA1, 0x66] + Array("status".utf8) + [0x0A]
  static let status11: [UInt8] = [0xA1, 0x66] + Array("status".utf8) + [0x0B]

  @Test("Several requests and responses flow both ways, then the reader terminates")
  func conversation() throws {
    var pair = try Pair()
    try pair.establish()
    #expect(pair.holder.transcript == pair.reader.transcript)
    for round in 1...3 {
      let response = try pair.holder.send(response: [UInt8(round)])
      #expect(try pair.reader.receive(response) == .message([UInt8(round)]))
      let request = try pair.reader.send(request: [UInt8(round), 9])
      #expect(try pair.holder.receive(request) == .message([UInt8(round), 9]))
    }
    let last = try pair.holder.send(response: [7], endingSession: true)
    #expect(pair.holder.state == .closed)
    #expect(try pair.reader.receive(last) == .finalMessage([7]))
    #expect(pair.reader.state == .closed)
    #expect(pair.reader.terminate() == nil)
  }

  @Test("A SessionEstablishment under another EDeviceKey fails with status 10")
  func wrongKey() throws {
    var pair = try Pair()
    var stranger = try ReaderSession(
      deviceEngagement: DeviceEngagement(eDeviceKey: ECPrivateKey(curve: .p256).publicKey),
      handover: Handover.qr)
    let error = try #require(throws: MdocProximityError.self) {
      try pair.holder.receive(stranger.send(request: [1]))
    }
    #expect(error.code == .decryptionFailed)
    #expect(error.status == .sessionEncryptionError)
    #expect(error.statusMessage == Self.status10)
    #expect(pair.holder.state == .closed)
  }

  @Test("A replayed SessionData fails with status 10 and closes the session")
  func replay() throws {
    var pair = try Pair()
    try pair.establish()
    let second = try pair.reader.send(request: [2])
    #expect(try pair.holder.receive(second) == .message([2]))
    let error = try #require(throws: MdocProximityError.self) { try pair.holder.receive(second) }
    #expect(error.code == .decryptionFailed)
    #expect(error.statusMessage == Self.status10)
    #expect(pair.holder.state == .closed)
    let after = try #require(throws: MdocProximityError.self) {
      try pair.holder.receive(pair.reader.send(request: [3]))
    }
    #expect(after.code == .sessionClosed)
    #expect(after.statusMessage == nil)
  }

  @Test("A replayed response fails at the reader with status 10")
  func replayToReader() throws {
    var pair = try Pair()
    try pair.establish()
    let response = try pair.holder.send(response: [5])
    #expect(try pair.reader.receive(response) == .message([5]))
    let error = try #require(throws: MdocProximityError.self) { try pair.reader.receive(response) }
    #expect(error.code == .decryptionFailed)
    #expect(error.statusMessage == Self.status10)
    #expect(pair.reader.state == .closed)
  }

  @Test("Reordered messages fail with status 10")
  func reordered() throws {
    var pair = try Pair()
    try pair.establish()
    _ = try pair.reader.send(request: [2])
    let third = try pair.reader.send(request: [3])
    let error = try #require(throws: MdocProximityError.self) { try pair.holder.receive(third) }
    #expect(error.code == .decryptionFailed)
    #expect(error.status == .sessionEncryptionError)
  }

  @Test("A tampered ciphertext or tag fails with status 10", arguments: [0, 1, -1])
  func tampered(position: Int) throws {
    var pair = try Pair()
    try pair.establish()
    let message = try SessionData(bytes: pair.reader.send(request: [1, 2, 3, 4]))
    var data = try #require(message.data)
    data[position < 0 ? data.count + position : position] ^= 0x01
    let error = try #require(throws: MdocProximityError.self) {
      try pair.holder.receive(SessionData(data: data).bytes)
    }
    #expect(error.code == .decryptionFailed)
    #expect(error.statusMessage == Self.status10)
    // Shorter than the tag.
    var short = try Pair()
    try short.establish()
    let tooShort = try #require(throws: MdocProximityError.self) {
      try short.holder.receive(SessionData(data: [UInt8](repeating: 0, count: 15)).bytes)
    }
    #expect(tooShort.code == .decryptionFailed)
  }

  @Test("A message after termination is refused, and nothing is sent after the end")
  func afterTermination() throws {
    var pair = try Pair()
    try pair.establish()
    let ended = pair.reader.terminate()
    let termination = try #require(ended)
    #expect(try pair.holder.receive(termination) == .terminated)
    #expect(pair.holder.state == .closed)
    let late = try #require(throws: MdocProximityError.self) {
      try pair.holder.receive(SessionData(data: [1]).bytes)
    }
    #expect(late.code == .sessionClosed)
    #expect(late.statusMessage == nil)
    #expect(
      throws: MdocProximityError(.sessionClosed, "the session has ended; nothing more is sent")
    ) {
      try pair.holder.send(response: [1])
    }
    #expect(
      throws: MdocProximityError(.sessionClosed, "the session has ended; nothing more is sent")
    ) {
      try pair.reader.send(request: [1])
    }
    #expect(pair.holder.terminate() == nil)
    #expect(pair.holder.abort(with: .cborDecodingError) == nil)
  }

  @Test("An unknown status ends the session without an answer", arguments: [0, 12, 21, 99])
  func unknownStatus(code: Int) throws {
    var pair = try Pair()
    try pair.establish()
    let message = CBOREncoder().encode(["status": CBOR(code)])
    let error = try #require(throws: MdocProximityError.self) { try pair.holder.receive(message) }
    #expect(error.code == .unknownStatus)
    #expect(error.statusMessage == nil)
    #expect(pair.holder.state == .closed)
    let unknownStatusError = #expect(throws: MdocProximityError.self) {
      try SessionData(bytes: message)
    }
    #expect(unknownStatusError?.code == .unknownStatus)
  }

  @Test("Status 10 or 11 from the other side is an error; 20 before establishment ends quietly")
  func peerStatuses() throws {
    var pair = try Pair()
    try pair.establish()
    let error = try #require(throws: MdocProximityError.self) {
      try pair.reader.receive(Self.status11)
    }
    #expect(error.code == .peerReportedError)
    #expect(error.statusMessage == nil)
    var early = try Pair()
    #expect(try early.holder.receive(SessionData(status: .sessionTermination).bytes) == .terminated)
    // Data with status 20 is no SessionEstablishment: a decoding error.
    var earlyData = try Pair()
    let dataFirst = try #require(throws: MdocProximityError.self) {
      try earlyData.holder.receive(SessionData(data: [1], status: .sessionTermination).bytes)
    }
    #expect(dataFirst.code == .malformed)
    #expect(dataFirst.statusMessage == Self.status11)
    var earlyError = try Pair()
    let peerReportedErrorError = #expect(throws: MdocProximityError.self) {
      try earlyError.holder.receive(Self.status10)
    }
    #expect(peerReportedErrorError?.code == .peerReportedError)
  }

  @Test("Messages that are not the CDDL answer status 11")
  func malformed() throws {
    let inputs: [[UInt8]] = [
      [0xFF],  // not CBOR
      CBOREncoder().encode(["data": "text"]),  // data not a bstr
      CBOREncoder().encode([:]),  // neither data nor status
      CBOREncoder().encode(["status": -1]),  // status not a uint
      CBOREncoder().encode([1, 2]),  // not a map
    ]
    for input in inputs {
      var pair = try Pair()
      try pair.establish()
      let error = try #require(throws: MdocProximityError.self) { try pair.holder.receive(input) }
      #expect(error.code == .malformed)
      #expect(error.statusMessage == Self.status11)
      #expect(pair.holder.state == .closed)
    }
    // SessionEstablishment without eReaderKey, with a key that is not a COSE_Key map.
    for input in [
      [0xFF],
      CBOREncoder().encode(["eReaderKey": try Pair().reader.deviceEngagement.eDeviceKeyBytes]),
      CBOREncoder().encode(["data": .byteString([1])]),
      CBOREncoder().encode([
        "eReaderKey": .tagged(24, .byteString(CBOREncoder().encode([2, 1]))),
        "data": .byteString([1]),
      ]),
    ] {
      var pair = try Pair()
      let error = try #require(throws: MdocProximityError.self) { try pair.holder.receive(input) }
      #expect(error.code == .malformed)
      #expect(error.statusMessage == Self.status11)
    }
  }

  @Test("An EReaderKey off the curve, or on another curve than EDeviceKey, answers status 10")
  func badReaderKey() throws {
    var pair = try Pair()
    let honest = try SessionEstablishment(bytes: pair.reader.send(request: [1]))
    var offCurve = honest.eReaderKey.y
    offCurve[31] ^= 1
    let key: CBOR = [1: 2, -1: 1, -2: .byteString(honest.eReaderKey.x), -3: .byteString(offCurve)]
    let forged = CBOREncoder().encode([
      "eReaderKey": .tagged(24, .byteString(CBOREncoder().encode(key))),
      "data": .byteString(honest.data),
    ])
    let error = try #require(throws: MdocProximityError.self) { try pair.holder.receive(forged) }
    #expect(error.code == .invalidKey)
    #expect(error.statusMessage == Self.status10)

    var other = try Pair()
    let p384 = SessionEstablishment(eReaderKey: try ECPrivateKey(curve: .p384).publicKey, data: [1])
    let mismatch = try #require(throws: MdocProximityError.self) {
      try other.holder.receive(p384.bytes)
    }
    #expect(mismatch.code == .invalidKey)
    #expect(mismatch.statusMessage == Self.status10)
    let invalidKeyError = #expect(throws: MdocProximityError.self) {
      try ReaderSession(
        deviceEngagement: other.holder.deviceEngagement, handover: .null,
        eReaderKey: ECPrivateKey(curve: .p384))
    }
    #expect(invalidKeyError?.code == .invalidKey)
  }

  @Test("Messages past the size limit answer status 11 before they are decoded")
  func oversize() throws {
    let limit = 1024
    var pair = try Pair(limits: SessionLimits(maxMessageByteCount: limit))
    try pair.establish()
    // {"data": h'..'} has 9 bytes around a data field of 256 to 65535 bytes.
    let atLimit = SessionData(data: [UInt8](repeating: 0, count: limit - 9)).bytes
    #expect(atLimit.count == limit)
    let decrypted = try #require(throws: MdocProximityError.self) {
      try pair.holder.receive(atLimit)
    }
    #expect(decrypted.code == .decryptionFailed)  // read, then refused by AES-GCM

    var again = try Pair(limits: SessionLimits(maxMessageByteCount: limit))
    try again.establish()
    let past = SessionData(data: [UInt8](repeating: 0, count: limit - 8)).bytes
    let error = try #require(throws: MdocProximityError.self) { try again.holder.receive(past) }
    #expect(error.code == .tooLarge)
    #expect(error.statusMessage == Self.status11)
    let establishment = SessionEstablishment(
      eReaderKey: try ECPrivateKey(curve: .p256).publicKey,
      data: [UInt8](repeating: 0, count: limit))
    let establishmentError = try #require(throws: MdocProximityError.self) {
      try SessionEstablishment(
        bytes: establishment.bytes, limits: SessionLimits(maxMessageByteCount: limit))
    }
    #expect(establishmentError.code == .tooLarge)
    #expect(
      try SessionEstablishment(
        bytes: establishment.bytes,
        limits: SessionLimits(maxMessageByteCount: establishment.bytes.count)
      ).data.count == limit)
    #expect(SessionLimits.default.maxMessageByteCount == 4 << 20)
  }

  @Test("The reader refuses a message before it sent the SessionEstablishment")
  func readerBeforeEstablishment() throws {
    var pair = try Pair()
    let error = try #require(throws: MdocProximityError.self) {
      try pair.reader.receive(SessionData(data: [1]).bytes)
    }
    #expect(error.code == .unexpectedMessage)
    let unexpectedMessageError = #expect(throws: MdocProximityError.self) {
      try pair.holder.send(response: [1])
    }
    #expect(unexpectedMessageError?.code == .unexpectedMessage)
  }

  @Test("The message counter stops at 2³²−1 (§9.1.1.5)")
  func counterExhausted() throws {
    var pair = try Pair()
    try pair.establish()
    pair.holder.cipher?.sendCounter = UInt64(UInt32.max)
    pair.reader.cipher.receiveCounter = UInt64(UInt32.max)
    #expect(try pair.reader.receive(pair.holder.send(response: [1])) == .message([1]))
    let error = try #require(throws: MdocProximityError.self) {
      try pair.holder.send(response: [2])
    }
    #expect(error.code == .counterExhausted)
    #expect(pair.holder.state == .closed)
    let readerError = try #require(throws: MdocProximityError.self) {
      try pair.reader.receive(SessionData(data: [UInt8](repeating: 0, count: 16)).bytes)
    }
    #expect(readerError.code == .counterExhausted)
  }

  @Test("A holder's key must be its engagement's; abort sends the chosen status")
  func holderKey() throws {
    let engagement = DeviceEngagement(eDeviceKey: try ECPrivateKey(curve: .p256).publicKey)
    let invalidKeyError = #expect(throws: MdocProximityError.self) {
      try HolderSession(
        deviceEngagement: engagement, eDeviceKey: ECPrivateKey(curve: .p256), handover: .null)
    }
    #expect(invalidKeyError?.code == .invalidKey)
    var pair = try Pair()
    try pair.establish()
    #expect(pair.holder.abort(with: .cborDecodingError) == Self.status11)
    #expect(pair.holder.state == .closed)
  }
}
