import DCEncoding
import DCTestSupport
import Testing

@testable import DCZK

/// `MdocZKStatement` refuses what the circuits cannot take (`mdoc_zk.cc` run_mdoc_verifier's
/// checks and `cbor_validate`, `mdoc_witness.h` compute_transcript_hash's lengths), each at and
/// past its bound.
@Suite("Longfellow mdoc statement: what the circuits take")
struct MdocZKStatementTests {
  static let x = [UInt8](repeating: 0x11, count: 32)
  static let y = [UInt8](repeating: 0x22, count: 32)
  static let age = MdocZKAttribute(identifier: "age_over_18", cborValue: [0xF5])

  static func make(
    x: [UInt8] = x, y: [UInt8] = y, docType: String = "org.iso.18013.5.1.mDL",
    attributes: [MdocZKAttribute] = [age], transcript: [UInt8] = [0x80],
    now: String = "2026-12-05T21:51:30Z"
  ) throws(ZKError) -> MdocZKStatement {
    try MdocZKStatement(
      issuerKeyX: x, issuerKeyY: y, docType: docType, attributes: attributes,
      sessionTranscript: transcript, now: now)
  }

  static func refused(_ note: String, _ make: () throws(ZKError) -> MdocZKStatement) {
    do {
      _ = try make()
      Issue.record("taken: \(note)")
    } catch {
      #expect(error.code == .publicInputsInvalid, "\(note)")
    }
  }

  @Test("Issuer key coordinates: 32 bytes below p")
  func coordinates() throws {
    var belowP = MdocZKField.prime
    belowP[31] -= 1
    _ = try Self.make(x: belowP, y: belowP)
    Self.refused("x = p") { () throws(ZKError) in try Self.make(x: MdocZKField.prime) }
    Self.refused("y = p") { () throws(ZKError) in try Self.make(y: MdocZKField.prime) }
    Self.refused("31 bytes") { () throws(ZKError) in try Self.make(x: Array(Self.x.dropLast())) }
    Self.refused("33 bytes") { () throws(ZKError) in try Self.make(y: Self.y + [0]) }
  }

  @Test("now: exactly YYYY-MM-DDTHH:MM:SSZ")
  func time() throws {
    for bad in [
      "2026-12-05T21:51:30.5Z", "2026-12-05T21:51:30", "2026-12-05 21:51:30Z",
      "2026-12-05T21:51:3xZ",
      "", "2026-12-05T21:51:30+00:00",
    ] {
      Self.refused(bad) { () throws(ZKError) in try Self.make(now: bad) }
    }
  }

  @Test("1 to 4 attributes; identifiers up to 32 bytes; values up to 64 bytes of one primitive")
  func attributes() throws {
    Self.refused("none") { () throws(ZKError) in try Self.make(attributes: []) }
    _ = try Self.make(attributes: Array(repeating: Self.age, count: 4))
    Self.refused("five") { () throws(ZKError) in
      try Self.make(attributes: Array(repeating: Self.age, count: 5))
    }
    let id32 = String(repeating: "a", count: 32)
    _ = try Self.make(attributes: [MdocZKAttribute(identifier: id32, cborValue: [0xF5])])
    Self.refused("33-byte identifier") { () throws(ZKError) in
      try Self.make(attributes: [MdocZKAttribute(identifier: id32 + "a", cborValue: [0xF5])])
    }
    let text63: [UInt8] = [0x78, 62] + [UInt8](repeating: 0x61, count: 62)
    _ = try Self.make(attributes: [MdocZKAttribute(identifier: "x", cborValue: text63 + [])])
    Self.refused("65-byte value") { () throws(ZKError) in
      try Self.make(attributes: [
        MdocZKAttribute(
          identifier: "x", cborValue: [0x78, 63] + [UInt8](repeating: 0x61, count: 63))
      ])
    }
    let fullDate: [UInt8] = [0xD9, 0x03, 0xEC, 0x6A] + Array("1971-09-01".utf8)
    let tdate: [UInt8] = [0xC0, 0x74] + Array("2026-12-05T21:51:30Z".utf8)
    for good in [
      [0xF4], [0x18, 0x2A], [0x20], [0x43, 1, 2, 3], [0x62, 0x61, 0x62], fullDate, tdate,
    ] {
      _ = try Self.make(attributes: [MdocZKAttribute(identifier: "x", cborValue: good)])
    }
    let bad: [[UInt8]] = [
      [], [0x80], [0xA0], [0xF6], [0xF5, 0xF5], [0x62, 0x61], [0xD9, 0x03, 0xEC, 0x61, 0x61],
      [0xC0, 0x61, 0x61], [0xC1, 0x01], [0xFB] + [UInt8](repeating: 0, count: 8),
    ]
    for value in bad {
      Self.refused(Hex.encode(value)) { () throws(ZKError) in
        try Self.make(attributes: [MdocZKAttribute(identifier: "x", cborValue: value)])
      }
    }
  }

  @Test("docType up to 255 bytes; transcript 1 to 65,000 bytes")
  func lengths() throws {
    _ = try Self.make(docType: String(repeating: "d", count: 255))
    Self.refused("256-byte docType") { () throws(ZKError) in
      try Self.make(docType: String(repeating: "d", count: 256))
    }
    Self.refused("empty transcript") { () throws(ZKError) in try Self.make(transcript: []) }
    let limit = MdocZKLimits.maxSessionTranscriptBytes
    let statement = try Self.make(
      docType: String(repeating: "d", count: 255), transcript: [UInt8](repeating: 0, count: limit))
    #expect(MdocZKBinding.e2Digest(statement).count == 32)
    Self.refused("transcript over the limit") { () throws(ZKError) in
      try Self.make(transcript: [UInt8](repeating: 0, count: limit + 1))
    }
  }
}
