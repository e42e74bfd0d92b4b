import DCCBOR
import DCTestSupport
import Testing

/// Random and mutated inputs must decode or throw, never trap (RFC 8949 §10).
struct RobustnessTests {
  static let seeds: [[UInt8]] = [
    "a26161016162820203", "9f018202039f0405ffff", "bf6346756ef563416d7421ff",
    "5f42010243030405ff", "c074323031332d30332d32315432303a30343a30305a",
    "d818456449455446", "fb3ff199999999999a", "a201020304", "7f657374726561646d696e67ff",
    "83a1616102d818438201f5fa7f7fffff", "c249010000000000000000",
  ].map { [UInt8](hex: $0) }

  func exercise(_ bytes: [UInt8]) {
    let decoder = CBORDecoder()
    guard let result = try? decoder.decodeReportingDeterminism(bytes) else {
      #expect(throws: CBORError.self) { try decoder.diagnosticNotation(of: bytes) }
      return
    }
    // A decoded value re-encodes to bytes that decode again.
    let reencoded = result.value.encoded()
    #expect((try? decoder.decode(reencoded)) != nil, "\(bytes.hex)")
    if result.isDeterministic {
      #expect(reencoded == bytes, "deterministic input \(bytes.hex) changed on re-encoding")
    }
    #expect((try? decoder.diagnosticNotation(of: bytes)) != nil, "\(bytes.hex)")
    _ = result.value.diagnosticNotation
  }

  @Test func randomBytes() {
    var generator = SplitMix64(state: 0x5eed)
    for _ in 0..<3000 {
      let length = Int.random(in: 0...48, using: &generator)
      var bytes: [UInt8] = []
      for _ in 0..<length { bytes.append(UInt8.random(in: 0...255, using: &generator)) }
      exercise(bytes)
    }
  }

  @Test func mutatedValidItems() {
    var generator = SplitMix64(state: 0xc0ffee)
    for _ in 0..<3000 {
      var bytes = Self.seeds[Int.random(in: 0..<Self.seeds.count, using: &generator)]
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        let position = Int.random(in: 0...bytes.count, using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0 where position < bytes.count:
          bytes[position] = UInt8.random(in: 0...255, using: &generator)
        case 1 where position < bytes.count:
          bytes[position] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
        case 2:
          bytes.insert(UInt8.random(in: 0...255, using: &generator), at: position)
        default:
          if position < bytes.count { bytes.remove(at: position) }
        }
      }
      exercise(bytes)
    }
  }
}

/// Large but legal inputs decode in linear time (RFC 8949 §10).
struct ScaleTests {
  @Test func largeArrayAndMap() throws {
    let array = CBOR.array((0..<100_000).map { CBOR($0) })
    let arrayBytes = array.encoded()
    #expect(try CBOR.decode(arrayBytes) == array)

    var map = CBORMap()
    for index in 0..<20_000 { map[index] = .textString("v\(index)") }
    let mapBytes = CBOR.map(map).encoded()
    let decoded = try CBORDecoder().decodeReportingDeterminism(mapBytes)
    #expect(decoded.isDeterministic)
    #expect(decoded.value.map?.count == 20_000)

    let blob = CBOR.byteString([UInt8](repeating: 0xab, count: 8 << 20))
    #expect(try CBOR.decode(blob.encoded()) == blob)
  }

  /// Sixteen times the members: about 16x the time when linear, 256x when quadratic (a map's
  /// duplicate-key check is where that would hide); 64x leaves room for a busy machine.
  @Test func decodingTimeGrowsLinearly() throws {
    func mapBytes(_ count: Int) -> [UInt8] {
      var map = CBORMap()
      for index in 0..<count { map[index] = .textString("v\(index)") }
      return CBOR.map(map).encoded()
    }
    let maps = [1_250: mapBytes(1_250), 20_000: mapBytes(20_000)]
    let mapRatio = try scalingRatio(small: 1_250, large: 20_000, bound: 64) { count in
      _ = try CBORDecoder().decodeReportingDeterminism(maps[count] ?? [])
    }
    #expect(mapRatio < 64, "16x the map keys took \(mapRatio)x the time")
    let arrays = [
      6_250: CBOR.array((0..<6_250).map { CBOR($0) }).encoded(),
      100_000: CBOR.array((0..<100_000).map { CBOR($0) }).encoded(),
    ]
    let arrayRatio = try scalingRatio(small: 6_250, large: 100_000, bound: 64) { count in
      _ = try CBOR.decode(arrays[count] ?? [])
    }
    #expect(arrayRatio < 64, "16x the array items took \(arrayRatio)x the time")
  }
}
