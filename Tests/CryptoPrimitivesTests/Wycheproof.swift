import Foundation
import Testing

/// Wycheproof's shared file shape: `testGroups[].tests[]` with `result` valid/invalid/acceptable.
struct WycheproofFile<Group: Decodable>: Decodable {
  let algorithm: String?
  let testGroups: [Group]
}

enum WycheproofResult: String, Decodable {
  case valid, invalid, acceptable
}

func loadVectors<Group: Decodable>(_ name: String, as: Group.Type = Group.self) throws
  -> WycheproofFile<Group>
{
  let url = try #require(
    Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors"))
  return try JSONDecoder().decode(WycheproofFile<Group>.self, from: Data(contentsOf: url))
}

/// Decodes lowercase or uppercase hex; the vectors are trusted test data.
func bytes(_ hex: String) -> [UInt8] {
  var out = [UInt8]()
  out.reserveCapacity(hex.count / 2)
  var high: UInt8?
  for c in hex.utf8 {
    let v: UInt8
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c - UInt8(ascii: "A") + 10
    default: continue
    }
    if let h = high {
      out.append(h << 4 | v)
      high = nil
    } else {
      high = v
    }
  }
  return out
}

func hexString(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
