import DCCBOR
import Testing

@testable import DCMdocProximity

/// `SessionData.bytes` is written straight into one buffer (perf1314); it must equal the encoding
/// of the `{? "data", ? "status"}` map through the `CBOR` tree, for every data length head
/// and every status, and read back to the same values.
@Suite("SessionData written directly")
struct SessionDataWriteTests {
  static let lengths = [0, 1, 23, 24, 255, 256, 65_535, 65_536, 70_000]

  static func viaTree(data: [UInt8]?, status: SessionStatus?) -> [UInt8] {
    var map = CBORMap()
    if let data { map[key: .textString("data")] = .byteString(data) }
    if let status { map[key: .textString("status")] = .unsigned(status.rawValue) }
    return CBOREncoder(mapOrder: .preserved).encode(.map(map))
  }

  @Test("data, with and without each status", arguments: lengths)
  func dataWithStatus(length: Int) throws {
    let data = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 13) }
    for status in [nil] + SessionStatus.allCases.map(Optional.some) {
      let written = SessionData(data: data, status: status)
      #expect(written.bytes == Self.viaTree(data: data, status: status))
      // The deterministic order is the same: "data" sorts before "status" (RFC 8949 §4.2.1).
      let deterministic = CBOREncoder(mapOrder: .deterministic)
      #expect(written.bytes == deterministic.encode(try CBOR.decode(written.bytes)))
      let read = try SessionData(bytes: written.bytes)
      #expect(read.data == data)
      #expect(read.status == status)
    }
  }

  @Test("a status alone", arguments: SessionStatus.allCases)
  func statusAlone(status: SessionStatus) throws {
    let written = SessionData(status: status)
    #expect(written.bytes == Self.viaTree(data: nil, status: status))
    let read = try SessionData(bytes: written.bytes)
    #expect(read.data == nil)
    #expect(read.status == status)
  }
}
