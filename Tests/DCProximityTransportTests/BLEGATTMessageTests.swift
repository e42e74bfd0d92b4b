import DCCrypto
import DCProximityTransport
import DCTestSupport
import Foundation
import Testing

/// The GATT definitions, the Ident, and the chunking of ISO/IEC 18013-5 §8.3.3.1.1.
@Suite struct BLEGATTMessageTests {
  struct AnnexD: Decodable {
    let deviceEngagement: String
    let eDeviceKeyBytes: String
    let centralClientModeUUID: String
    let bleIdent: String

    enum CodingKeys: String, CodingKey {
      case deviceEngagement = "device_engagement"
      case eDeviceKeyBytes = "e_device_key_bytes"
      case centralClientModeUUID = "central_client_mode_uuid"
      case bleIdent = "ble_ident_python_cryptography"
    }
  }

  static func annexD() throws -> AnnexD {
    try VectorFile.decode(AnnexD.self, "iso18013-5-annex-d-ble", in: .module)
  }

  // MARK: UUIDs (Tables 11 and 12)

  @Test func characteristicUUIDsAreTheTablesOnes() {
    let peripheral = BLEMode.mdocPeripheralServer
    #expect(peripheral.uuid(of: .state)?.description == "00000001-A123-48CE-896B-4C76973373E6")
    #expect(
      peripheral.uuid(of: .client2Server)?.description == "00000002-A123-48CE-896B-4C76973373E6")
    #expect(
      peripheral.uuid(of: .server2Client)?.description == "00000003-A123-48CE-896B-4C76973373E6")
    #expect(peripheral.uuid(of: .ident) == nil)
    #expect(peripheral.characteristics == [.state, .client2Server, .server2Client])

    let central = BLEMode.mdocCentralClient
    #expect(central.uuid(of: .state)?.description == "00000005-A123-48CE-896B-4C76973373E6")
    #expect(central.uuid(of: .client2Server)?.description == "00000006-A123-48CE-896B-4C76973373E6")
    #expect(central.uuid(of: .server2Client)?.description == "00000007-A123-48CE-896B-4C76973373E6")
    #expect(central.uuid(of: .ident)?.description == "00000008-A123-48CE-896B-4C76973373E6")
    for characteristic in central.characteristics {
      let uuid = central.uuid(of: characteristic)
      #expect(uuid.flatMap { central.characteristic(for: $0) } == characteristic)
      #expect(uuid.flatMap { peripheral.characteristic(for: $0) } == nil)
    }
  }

  @Test func gattServerPerModeAndSide() {
    #expect(BLEMode.mdocPeripheralServer.isGATTServer(.mdoc))
    #expect(!BLEMode.mdocPeripheralServer.isGATTServer(.mdocReader))
    #expect(BLEMode.mdocCentralClient.isGATTServer(.mdocReader))
    #expect(!BLEMode.mdocCentralClient.isGATTServer(.mdoc))
  }

  @Test func uuidText() throws {
    let uuid = try #require(BLEUUID("45efef74-2b2c-4837-a9a3-b0e1d05a6917"))
    #expect(uuid.bytes == hexBytes("45efef742b2c4837a9a3b0e1d05a6917"))
    #expect(uuid.description == "45EFEF74-2B2C-4837-A9A3-B0E1D05A6917")
    #expect(BLEUUID("45efef74-2b2c-4837-a9a3-b0e1d05a691") == nil)
    #expect(BLEUUID("45efef742b2c4837a9a3b0e1d05a6917") == nil)
    #expect(BLEUUID("45efef74-2b2c-4837-a9a3-b0e1d05a691g") == nil)
    #expect(BLEUUID(bytes: [UInt8](repeating: 0, count: 15)) == nil)
  }

  // MARK: Ident (§8.3.3.1.1.4)

  @Test func identOfTheAnnexDEngagement() throws {
    let vector = try Self.annexD()
    let engagement = hexBytes(vector.deviceEngagement)
    let keyBytes = hexBytes(vector.eDeviceKeyBytes)
    // EDeviceKeyBytes as shown: tag 24 (d8 18) around the COSE_Key, inside the engagement.
    #expect(Array(keyBytes.prefix(2)) == [0xD8, 0x18])
    #expect(hexString(engagement).contains(vector.eDeviceKeyBytes))
    // The engagement's central client mode UUID (option 11, 0x0b, a 16-byte string, 0x50).
    let uuid = try #require(BLEUUID(vector.centralClientModeUUID))
    #expect(hexString(engagement).contains("0b50" + hexString(uuid.bytes)))

    let ident = try BLEIdent.value(eDeviceKeyBytes: keyBytes)
    #expect(ident.count == 16)
    #expect(hexString(ident) == vector.bleIdent)
    // The whole tag-24 item is the key material, not the COSE_Key inside it.
    #expect(try BLEIdent.value(eDeviceKeyBytes: Array(keyBytes.dropFirst(4))) != ident)
  }

  @Test("Python cryptography's HKDF gives the same Ident", .pythonPeers)
  func identAgainstPythonCryptography() throws {
    try PythonPeer.require("identAgainstPythonCryptography")
    let vector = try Self.annexD()
    let output = try PythonPeer.run(
      """
      import sys
      from cryptography.hazmat.primitives import hashes
      from cryptography.hazmat.primitives.kdf.hkdf import HKDF
      for line in sys.stdin.read().split():
          ikm = bytes.fromhex(line)
          print(HKDF(algorithm=hashes.SHA256(), length=16, salt=b"", info=b"BLEIdent").derive(ikm).hex())
      """,
      input: [vector.eDeviceKeyBytes, "d81843a10102", "00"].joined(separator: "\n"))
    let theirs = output.split(separator: "\n").map(String.init)
    let ours = try [vector.eDeviceKeyBytes, "d81843a10102", "00"].map {
      hexString(try BLEIdent.value(eDeviceKeyBytes: hexBytes($0)))
    }
    #expect(theirs == ours)
    #expect(theirs.first == vector.bleIdent)
  }

  // MARK: Chunking (§8.3.3.1.1.6)

  @Test(arguments: [2, 20, 182, 512])
  func chunksCarryTheMessageWithTheContinuationByte(_ valueLength: Int) throws {
    for size in [1, valueLength - 1, valueLength, valueLength + 1, 3 * (valueLength - 1), 5000] {
      guard size > 0 else { continue }
      let message = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) }
      let chunks = try BLEMessageChunker.chunks(message, maximumValueLength: valueLength)
      #expect(chunks.count == (size + valueLength - 2) / (valueLength - 1))
      #expect(chunks.allSatisfy { $0.count <= valueLength && $0.count >= 2 })
      #expect(chunks.dropLast().allSatisfy { $0.first == 0x01 && $0.count == valueLength })
      #expect(chunks.last?.first == 0x00)
      var reassembler = BLEMessageReassembler(maximumValueLength: valueLength)
      var result: [UInt8]?
      for (index, chunk) in chunks.enumerated() {
        result = try reassembler.append(chunk)
        #expect((result == nil) == (index < chunks.count - 1))
      }
      #expect(result == message)
      #expect(!reassembler.isMidMessage)
    }
  }

  @Test func chunkingRefusesWhatCannotBeSent() {
    let messageTooLargeError = #expect(throws: TransportError.self) {
      try BLEMessageChunker.chunks([], maximumValueLength: 20)
    }
    #expect(messageTooLargeError?.code == .messageTooLarge)
    let protocolViolationError = #expect(throws: TransportError.self) {
      try BLEMessageChunker.chunks([1], maximumValueLength: 1)
    }
    #expect(protocolViolationError?.code == .protocolViolation)
    let small = TransportLimits(maxMessageBytes: 10, maxChunksPerMessage: 3, maxQueuedMessages: 1)
    #expect(
      Self.code {
        try BLEMessageChunker.chunks(
          [UInt8](repeating: 1, count: 11), maximumValueLength: 20, limits: small)
      }
        == .messageTooLarge)
    #expect(
      Self.code {
        try BLEMessageChunker.chunks(
          [UInt8](repeating: 1, count: 10), maximumValueLength: 4, limits: small)
      }
        == .messageTooLarge)
    #expect(
      (try? BLEMessageChunker.chunks(
        [UInt8](repeating: 1, count: 9), maximumValueLength: 4, limits: small))?
        .count == 3)
  }

  static func code<T>(_ body: () throws -> T) -> TransportErrorCode? {
    do {
      _ = try body()
      return nil
    } catch {
      guard let error = error as? TransportError else {
        Issue.record("not a TransportError: \(error)")
        return nil
      }
      return error.code
    }
  }

  // MARK: Reassembly bounds

  @Test func reassemblerRefusesMalformedChunks() throws {
    var reassembler = BLEMessageReassembler(maximumValueLength: 20)
    #expect(Self.code { try reassembler.append([]) } == .protocolViolation)
    #expect(Self.code { try reassembler.append([0x02, 1]) } == .protocolViolation)
    #expect(Self.code { try reassembler.append([0xFF, 1]) } == .protocolViolation)
    #expect(Self.code { try reassembler.append([0x01]) } == .protocolViolation)
    #expect(Self.code { try reassembler.append([0x00]) } == .protocolViolation)
    #expect(
      Self.code { try reassembler.append([0x00] + [UInt8](repeating: 1, count: 20)) }
        == .protocolViolation)
    // At the value limit it is accepted.
    #expect(
      try reassembler.append([0x00] + [UInt8](repeating: 1, count: 19))
        == [UInt8](repeating: 1, count: 19))
  }

  @Test func reassemblerBoundsTheMessageSize() throws {
    let limits = TransportLimits(
      maxMessageBytes: 10, maxChunksPerMessage: 100, maxQueuedMessages: 1)
    var reassembler = BLEMessageReassembler(limits: limits, maximumValueLength: 20)
    #expect(try reassembler.append([0x01, 1, 2, 3, 4, 5]) == nil)
    #expect(try reassembler.append([0x00, 6, 7, 8, 9, 10]) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    #expect(try reassembler.append([0x01, 1, 2, 3, 4, 5]) == nil)
    #expect(Self.code { try reassembler.append([0x01, 6, 7, 8, 9, 10, 11]) } == .messageTooLarge)
    // After a refusal the reassembler starts over.
    #expect(!reassembler.isMidMessage)
    #expect(try reassembler.append([0x00, 9]) == [9])
  }

  @Test func reassemblerBoundsTheChunkCount() throws {
    let limits = TransportLimits(
      maxMessageBytes: 1000, maxChunksPerMessage: 3, maxQueuedMessages: 1)
    var reassembler = BLEMessageReassembler(limits: limits, maximumValueLength: 20)
    #expect(try reassembler.append([0x01, 1]) == nil)
    #expect(try reassembler.append([0x01, 2]) == nil)
    #expect(try reassembler.append([0x00, 3]) == [1, 2, 3])
    #expect(try reassembler.append([0x01, 1]) == nil)
    #expect(try reassembler.append([0x01, 2]) == nil)
    #expect(try reassembler.append([0x01, 3]) == nil)
    #expect(Self.code { try reassembler.append([0x00, 4]) } == .messageTooLarge)
  }
}
