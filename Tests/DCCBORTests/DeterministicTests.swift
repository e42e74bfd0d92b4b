import DCCBOR
import DCJSON
import Testing

/// RFC 8949 §4.2.1 golden vectors, from Vectors/cbor-deterministic.json.
struct DeterministicTests {
  struct Vector: CustomTestStringConvertible, Sendable {
    var name: String
    var value: CBOR
    var hex: String
    var testDescription: String { name }
  }

  static let vectors: [Vector] = {
    guard let file = try? TestData.json("cbor-deterministic"),
      let items = file["vectors"]?.array
    else { return [] }
    return items.compactMap { item in
      guard let name = item["name"]?.string, let hex = item["hex"]?.string,
        let spec = item["cbor"], let value = build(spec)
      else { return nil }
      return Vector(name: name, value: value, hex: hex)
    }
  }()

  /// Builds a value from the typed spec `{t, v, tag}`, keeping map pairs in input order.
  static func build(_ spec: JSONValue) -> CBOR? {
    guard let type = spec["t"]?.string else { return nil }
    let v = spec["v"]
    switch (type, v) {
    case ("uint", .number(let n)?): return UInt64(n).map(CBOR.unsigned)
    case ("nint", .number(let n)?): return Int(n).map { CBOR($0) }
    case ("text", .string(let s)?): return .textString(s)
    case ("bytes", .string(let h)?): return .byteString([UInt8](hex: h))
    case ("bool", .bool(let b)?): return .boolean(b)
    case ("null", _): return .null
    case ("array", .array(let items)?):
      let built = items.compactMap(build)
      return built.count == items.count ? .array(built) : nil
    case ("map", .array(let pairs)?):
      var map = CBORMap()
      for pair in pairs {
        guard let kv = pair.array, kv.count == 2, let key = build(kv[0]), let value = build(kv[1])
        else { return nil }
        map[key: key] = value
      }
      return .map(map)
    case ("tag", let content?):
      guard case .number(let tag)? = spec["tag"], let number = UInt64(tag),
        let inner = build(content)
      else { return nil }
      return .tagged(number, inner)
    default: return nil
    }
  }

  @Test func vectorFileLoads() {
    #expect(Self.vectors.count == 29)
  }

  @Test(arguments: vectors)
  func encodesExactly(_ vector: Vector) throws {
    #expect(CBOREncoder().encode(vector.value).hex == vector.hex)
    let bytes = [UInt8](hex: vector.hex)
    let (decoded, isDeterministic) = try CBORDecoder().decodeReportingDeterminism(bytes)
    #expect(isDeterministic)
    #expect(decoded.encoded() == bytes)
  }

  @Test(arguments: [
    "a202000100",  // {2: 0, 1: 0}: keys out of order
    "a2616201616102",  // {"b": 1, "a": 2}
    "1817",  // 23 in a two-byte head
    "190017",  // 23 in a three-byte head
    "5801ff",  // byte string length in a long head
    "9f01ff",  // indefinite array
    "5f4101ff",  // indefinite byte string
    "fa3fc00000",  // 1.5 as float32 where float16 suffices
    "fb3ff8000000000000",  // 1.5 as float64
    "f97e01",  // NaN with a payload
  ])
  func reportsNonDeterministic(_ hex: String) throws {
    let bytes = [UInt8](hex: hex)
    let result = try CBORDecoder().decodeReportingDeterminism(bytes)
    #expect(!result.isDeterministic, "\(hex)")
  }

  @Test func preservedOrderKeepsInsertionOrder() {
    let value: CBOR = ["b": 1, "a": 2]
    #expect(CBOREncoder(mapOrder: .preserved).encode(value).hex == "a2616201616102")
    #expect(CBOREncoder(mapOrder: .deterministic).encode(value).hex == "a2616102616201")
  }

  @Test func floatsUsePreferredSerialization() {
    let cases: [(CBOR, String)] = [
      (.double(0.0), "f90000"),
      (.double(-0.0), "f98000"),
      (.double(1.5), "f93e00"),
      (.double(65504), "f97bff"),
      (.double(100000), "fa47c35000"),
      (.double(1.1), "fb3ff199999999999a"),
      (.double(.nan), "f97e00"),
      (.float(.infinity), "f97c00"),
      (.double(-.infinity), "f9fc00"),
      (.double(5.960464477539063e-08), "f90001"),
      (.float(3.4028234663852886e+38), "fa7f7fffff"),
      (.half(0x3c00), "f93c00"),
    ]
    for (value, hex) in cases {
      #expect(value.encoded().hex == hex, "\(value)")
    }
  }

  @Test func integerHeadsAreShortest() {
    let cases: [(CBOR, String)] = [
      (CBOR(-24), "37"), (CBOR(-25), "3818"), (CBOR(Int.min), "3b7fffffffffffffff"),
      (.unsigned(.max), "1bffffffffffffffff"), (.unsigned(65536), "1a00010000"),
      (.simple(255), "f8ff"), (.simple(16), "f0"),
    ]
    for (value, hex) in cases {
      #expect(value.encoded().hex == hex, "\(value)")
    }
  }
}
