import DCMdocProximity
import DCTestSupport
import Foundation
import Testing

/// The Android CTS NDEF cases (via multipaz), read by our NDEF reader.
@Suite("NDEF: the Android CTS parsing cases")
struct NDEFVectorTests {
  let json: [String: Any]

  init() throws { json = try VectorFile.object("ndef-android-cts", in: .module) }

  @Test("Every message Android refuses is refused, and so is every chunked message")
  func refused() throws {
    let invalid = try #require(json["invalid"] as? [String])
    let chunked = try #require(json["chunked"] as? [String])
    #expect(invalid.count == 17)
    #expect(chunked.count == 4)
    for hex in invalid + chunked {
      let malformedNDEFError = #expect(throws: MdocProximityError.self, "\(hex)") {
        try NDEFMessage(bytes: hexBytes(hex))
      }
      #expect(malformedNDEFError?.code == .malformedNDEF)
    }
  }

  @Test("Every message Android reads gives the same records")
  func read() throws {
    let valid = try #require(json["valid"] as? [[String: Any]])
    #expect(valid.count == 16)
    for entry in valid {
      let hex = try #require(entry["hex"] as? String)
      let records = try #require(entry["records"] as? [[String: Any]])
      let message = try NDEFMessage(bytes: hexBytes(hex))
      #expect(message.bytes == hexBytes(hex))
      #expect(message.records.count == records.count, "\(hex)")
      for (record, expected) in zip(message.records, records) {
        #expect(Int(record.typeNameFormat.rawValue) == expected["tnf"] as? Int, "\(hex)")
        #expect(record.type == hexBytes(try #require(expected["type"] as? String)), "\(hex)")
        #expect(record.id == hexBytes(try #require(expected["id"] as? String)), "\(hex)")
        #expect(record.payload == hexBytes(try #require(expected["payload"] as? String)), "\(hex)")
      }
      // Written back, the records read the same (the short form where the payload fits).
      #expect(
        try NDEFMessage(bytes: NDEFMessage(records: message.records).bytes).records
          == message.records)
    }
  }
}
