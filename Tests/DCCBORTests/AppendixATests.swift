import DCCBOR
import DCJSON
import Foundation
import Testing

/// RFC 8949 Appendix A examples, from Vectors/cbor-rfc8949-appendix-a.json.
struct AppendixATests {
  struct Vector: CustomTestStringConvertible, Sendable {
    var hex: String
    var roundtrip: Bool
    var decoded: String?  // JSON source text of `decoded`, re-parsed in the test
    var diagnostic: String?
    var testDescription: String { hex }
  }

  static let vectors: [Vector] = {
    guard let file = try? TestData.json("cbor-rfc8949-appendix-a"),
      let items = file["vectors"]?.array
    else { return [] }
    return items.compactMap { item in
      guard let hex = item["hex"]?.string else { return nil }
      return Vector(
        hex: hex, roundtrip: item["roundtrip"]?.bool ?? false,
        decoded: item["decoded"].map(Self.serialize),
        diagnostic: item["diagnostic"]?.string)
    }
  }()

  /// Vectors keep their `decoded` value as a JSONValue via a compact re-serialization so the
  /// table stays Sendable.
  static func serialize(_ value: JSONValue) -> String {
    switch value {
    case .number(let n): return n
    case .string(let s): return Diagnostic.quotedJSON(s)
    case .array(let a): return "[" + a.map(serialize).joined(separator: ",") + "]"
    case .object(let o):
      return "{"
        + o.map { Diagnostic.quotedJSON($0.0) + ":" + serialize($0.1) }.joined(separator: ",")
        + "}"
    case .bool(let b): return b ? "true" : "false"
    case .null: return "null"
    }
  }

  @Test func vectorFileLoads() {
    #expect(Self.vectors.count == 81)
  }

  @Test(arguments: vectors)
  func decodesAndMatches(_ vector: Vector) throws {
    let bytes = [UInt8](hex: vector.hex)
    let value = try CBOR.decode(bytes)
    if vector.roundtrip {
      #expect(value.encoded().hex == vector.hex, "re-encoding \(vector.hex)")
    }
    if let decoded = vector.decoded {
      let expected = try JSONParser.parse(Data(decoded.utf8))
      #expect(matches(value, expected), "\(vector.hex) decoded to \(value.diagnosticNotation)")
    }
    if let diagnostic = vector.diagnostic {
      #expect(try CBORDecoder().diagnosticNotation(of: bytes) == diagnostic, "\(vector.hex)")
    }
  }

  @Test func indefiniteLengthDiagnostics() throws {
    let cases: [(String, String)] = [
      ("5f42010243030405ff", "(_ h'0102', h'030405')"),
      ("7f657374726561646d696e67ff", "(_ \"strea\", \"ming\")"),
      ("9fff", "[_ ]"),
      ("9f018202039f0405ffff", "[_ 1, [2, 3], [_ 4, 5]]"),
      ("83018202039f0405ff", "[1, [2, 3], [_ 4, 5]]"),
      ("bf61610161629f0203ffff", "{_ \"a\": 1, \"b\": [_ 2, 3]}"),
      ("5fff", "''_"),
      ("7fff", "\"\"_"),
      ("c249010000000000000000", "2(h'010000000000000000')"),
      ("a201020304", "{1: 2, 3: 4}"),
      ("fb7e37e43c8800759c", "1.0e+300"),
      ("f93e00", "1.5"),
      ("f98000", "-0.0"),
      ("3bffffffffffffffff", "-18446744073709551616"),
      ("62225c", "\"\\\"\\\\\""),
    ]
    for (hex, expected) in cases {
      #expect(try CBORDecoder().diagnosticNotation(of: [UInt8](hex: hex)) == expected, "\(hex)")
    }
    #expect(CBOR.array([1, .map([1: "a"])]).diagnosticNotation == "[1, {1: \"a\"}]")
  }

  @Test func comparisonDetectsMismatches() {
    #expect(!matches(.unsigned(1), .number("2")))
    #expect(!matches(.double(0.0), .number("-0.0")))
    #expect(!matches(.tagged(2, .byteString([1, 0])), .number("257")))
    #expect(matches(.tagged(3, .byteString([1, 0])), .number("-257")))
    #expect(!matches(["a": 1], .object([("a", .number("1")), ("b", .null)])))
    #expect(!matches([1, 2], .array([.number("1")])))
  }

  @Test func nonPreferredFloatsReencodeShortest() throws {
    let cases = [
      ("fa7f800000", "f97c00"), ("fb7ff8000000000000", "f97e00"), ("fbfff0000000000000", "f9fc00"),
      ("fa3fc00000", "f93e00"), ("5f42010243030405ff", "450102030405"),
      (
        "bf6346756ef563416d7421ff",
        "a263416d7421634675 6ef5".replacingOccurrences(of: " ", with: "")
      ),
    ]
    for (input, output) in cases {
      #expect(try CBOR.decode([UInt8](hex: input)).encoded().hex == output, "\(input)")
    }
  }

  @Test func notWellFormedIsRejected() throws {
    let file = try TestData.json("cbor-rfc8949-appendix-a")
    let items = try #require(file["not_well_formed"]?.array)
    #expect(!items.isEmpty)
    for item in items {
      let hex = try #require(item["hex"]?.string)
      let invalidSimpleValueError = #expect(throws: CBORError.self, "\(hex)") {
        try CBOR.decode([UInt8](hex: hex))
      }
      #expect(invalidSimpleValueError?.code == .invalidSimpleValue)
    }
    #expect {
      try CBOR.decode([0xf8, 0x18])
    } throws: { ($0 as? CBORError)?.code == .invalidSimpleValue }
  }

  /// Compares a decoded value with the vector's JSON: numbers by text for integers (bignums
  /// via tags 2 and 3) and by value for floats.
  func matches(_ value: CBOR, _ expected: JSONValue) -> Bool {
    switch expected {
    case .number(let text):
      if text.contains(where: { ".eE".contains($0) }) {
        guard let actual = value.double, let wanted = Double(text) else { return false }
        return actual == wanted && actual.sign == wanted.sign
      }
      return integerText(value) == text
    case .string(let text):
      return value.text == text
    case .bool(let flag):
      return value.bool == flag
    case .null:
      return value.isNull
    case .array(let items):
      guard let array = value.array, array.count == items.count else { return false }
      return zip(array, items).allSatisfy { matches($0, $1) }
    case .object(let pairs):
      guard let map = value.map, map.count == pairs.count else { return false }
      return pairs.allSatisfy { key, wanted in
        map[key].map { matches($0, wanted) } ?? false
      }
    }
  }

  func integerText(_ value: CBOR) -> String? {
    switch value {
    case .unsigned(let n): return String(n)
    case .negative: return value.diagnosticNotation
    case .tagged(2, .byteString(let bytes)): return Decimal10.fromBigEndian(bytes)
    case .tagged(3, .byteString(let bytes)):
      return "-" + Decimal10.plusOne(Decimal10.fromBigEndian(bytes))
    default: return nil
    }
  }
}

enum Diagnostic {
  static func quotedJSON(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      default:
        if scalar.value < 0x20 {
          out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}
