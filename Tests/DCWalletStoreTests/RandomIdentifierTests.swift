import DCCrypto
import Foundation
import Testing

@testable import DCWalletStore

/// `RandomIdentifier.uuid()` makes the ids of stored credentials, device keys and batches from
/// the system generator (perf1314) in place of Foundation's `UUID()`; the text must be what
/// `UUID().uuidString.lowercased()` gives for the same bytes, a valid version 4 UUID.
@Suite("random identifiers")
struct RandomIdentifierTests {
  /// Fixed bytes, to check the formatting and the version and variant bits.
  struct FixedRandom: RandomSource {
    let value: [UInt8]
    func bytes(count: Int) -> [UInt8] { Array(value.prefix(count)) }
  }

  static func foundationText(_ b: [UInt8]) -> String {
    UUID(
      uuid: (
        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
        b[14], b[15]
      )
    ).uuidString.lowercased()
  }

  @Test("formatting equals Foundation's, lowercase")
  func formatEqualsFoundation() {
    for _ in 0..<200 {
      let bytes = SecureRandom.bytes(count: 16)
      #expect(RandomIdentifier.format(bytes) == Self.foundationText(bytes))
    }
    let edges: [[UInt8]] = [[UInt8](repeating: 0, count: 16), [UInt8](repeating: 0xFF, count: 16)]
    for bytes in edges { #expect(RandomIdentifier.format(bytes) == Self.foundationText(bytes)) }
  }

  @Test("version 4 and the RFC 9562 variant are set whatever the random bytes")
  func versionAndVariant() {
    #expect(
      RandomIdentifier.uuid(using: FixedRandom(value: [UInt8](repeating: 0xFF, count: 16)))
        == "ffffffff-ffff-4fff-bfff-ffffffffffff")
    #expect(
      RandomIdentifier.uuid(using: FixedRandom(value: [UInt8](repeating: 0, count: 16)))
        == "00000000-0000-4000-8000-000000000000")
    let id = RandomIdentifier.uuid()
    let parsed = UUID(uuidString: id)
    #expect(parsed != nil)
    #expect(parsed?.uuidString.lowercased() == id)
    let bytes = Array(id.utf8)
    #expect(bytes.count == 36)
    #expect(bytes[14] == UInt8(ascii: "4"))
    #expect("89ab".utf8.contains(bytes[19]))
  }

  @Test("identifiers differ")
  func distinct() {
    let ids = (0..<1000).map { _ in RandomIdentifier.uuid() }
    #expect(Set(ids).count == ids.count)
  }
}
