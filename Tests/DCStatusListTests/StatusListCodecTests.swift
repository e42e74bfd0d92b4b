import DCCBOR
import DCCrypto
import DCJSON
import DCStatusList
import Foundation
import Testing

/// The Status List byte array, its bit order and the zlib codec with its cap.
@Suite struct StatusListCodecTests {
  @Test(arguments: StatusList.Bits.allCases)
  func everyWidthRoundTripsThroughZlib(bits: StatusList.Bits) throws {
    var list = StatusList(bits: bits, count: 1000)
    #expect(list.count == 1000)
    for index in stride(from: 0, to: 1000, by: 7) {
      try list.setStatus(Status(rawValue: UInt8(index % (Int(bits.maximumValue) + 1))), at: index)
    }
    let read = try StatusList(bits: bits, compressed: try list.compressed())
    #expect(read == list)
    for index in 0..<1000 {
      let expected = index % 7 == 0 ? UInt8(index % (Int(bits.maximumValue) + 1)) : 0
      #expect(try read.status(at: index).rawValue == expected)
    }
  }

  @Test func bitOrderIsLeastSignificantFirst() throws {
    // Draft §4.1: entry 0 is the least significant bit (bits) of byte 0.
    var one = StatusList(bits: .one, count: 16)
    try one.setStatus(.invalid, at: 0)
    try one.setStatus(.invalid, at: 9)
    #expect(one.bytes == [0x01, 0x02])
    var two = StatusList(bits: .two, count: 4)
    try two.setStatus(.suspended, at: 1)
    #expect(two.bytes == [0b0000_1000])
    var four = StatusList(bits: .four, count: 2)
    try four.setStatus(.applicationSpecific(0x0C), at: 1)
    #expect(four.bytes == [0xC0])
  }

  @Test func statusValues() {
    #expect(Status(rawValue: 0) == .valid)
    #expect(Status(rawValue: 1) == .invalid)
    #expect(Status(rawValue: 2) == .suspended)
    #expect(Status(rawValue: 3) == .applicationSpecific(3))
    #expect(Status.applicationSpecific(15).rawValue == 15)
  }

  @Test func onlyOneTwoFourAndEightBits() {
    for value in [0, 3, 5, 16, -1] {
      let unsupportedBitsError = #expect(throws: StatusListError.self) {
        try StatusList.bits(value)
      }
      #expect(unsupportedBitsError?.code == .unsupportedBits)
    }
    #expect(throws: Never.self) { try StatusList.bits(8) }
  }

  @Test func indexOutOfRangeIsAnError() throws {
    var list = StatusList(bits: .one, count: 8)
    for index in [-1, 8, Int.max] {
      let indexOutOfRangeError = #expect(throws: StatusListError.self) {
        try list.status(at: index)
      }
      #expect(indexOutOfRangeError?.code == .indexOutOfRange)
      let indexOutOfRangeError2 = #expect(throws: StatusListError.self) {
        try list.setStatus(.invalid, at: index)
      }
      #expect(indexOutOfRangeError2?.code == .indexOutOfRange)
    }
    #expect(try list.status(at: 7) == .valid)
  }

  @Test func aStatusMustFitItsWidth() throws {
    var list = StatusList(bits: .one, count: 8)
    let error = #expect(throws: StatusListError.self) { try list.setStatus(.suspended, at: 0) }
    #expect(error?.code == .invalidStatus)
    var two = StatusList(bits: .two, count: 8)
    let invalidStatusError = #expect(throws: StatusListError.self) {
      try two.setStatus(.applicationSpecific(4), at: 0)
    }
    #expect(invalidStatusError?.code == .invalidStatus)
    try two.setStatus(.applicationSpecific(3), at: 0)
  }

  @Test func aBombStopsAtTheCap() throws {
    // 64 MiB of zeros compress to about 64 KiB; decompressing stops at the 16 MiB cap.
    let bomb = try Zlib.compress([UInt8](repeating: 0, count: 64 << 20))
    #expect(bomb.count < 100_000)
    // The closure discards what it decoded: were the cap gone, the failure would report the
    // 64 MiB value (and the test process would be killed for memory) instead of failing.
    let error = #expect(throws: StatusListError.self) {
      _ = try StatusList(bits: .one, compressed: bomb)
    }
    #expect(error?.code == .tooLarge)
    // Exactly at the cap is accepted; one byte past it is not.
    let atCap = try Zlib.compress([UInt8](repeating: 0, count: 1000))
    #expect(try Zlib.decompress(atCap, maximumSize: 1000).count == 1000)
    let pastCap = #expect(throws: StatusListError.self) {
      _ = try Zlib.decompress(atCap, maximumSize: 999)
    }
    #expect(pastCap?.code == .tooLarge)
  }

  @Test func onlyCompleteZlibStreams() throws {
    let good = try Zlib.compress(Array(repeating: 0xA5, count: 300))
    let cases: [(String, [UInt8])] = [
      ("truncated", Array(good.dropLast(3))),
      ("trailing bytes", good + [0]),
      ("raw deflate without the zlib header", Array(good.dropFirst(2))),
      ("corrupt checksum", Array(good.dropLast()) + [good[good.count - 1] ^ 0xFF]),
      ("empty", []),
    ]
    for (name, bytes) in cases {
      let error = #expect(throws: StatusListError.self, "\(name)") {
        try Zlib.decompress(bytes, maximumSize: 1 << 20)
      }
      #expect(error?.code == .decompressionFailed, "\(name)")
    }
    #expect(try Zlib.decompress(good, maximumSize: 300) == Array(repeating: 0xA5, count: 300))
  }

  @Test func countsAndStatuses() throws {
    var list = StatusList(bits: .two, count: 8)
    try list.setStatus(.invalid, at: 2)
    try list.setStatus(.suspended, at: 5)
    #expect(list.counts == [0: 6, 1: 1, 2: 1])
    #expect(
      list.statuses == [.valid, .valid, .invalid, .valid, .valid, .suspended, .valid, .valid])
  }
}
