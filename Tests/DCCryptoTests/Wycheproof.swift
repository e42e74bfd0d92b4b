import DCTestSupport
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
  try VectorFile.decode(WycheproofFile<Group>.self, name, in: .module)
}

/// Hex to bytes for the vectors.
func bytes(_ hex: String) -> [UInt8] { hexBytes(hex) }
