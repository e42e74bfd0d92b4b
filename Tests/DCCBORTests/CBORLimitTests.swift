import DCCBOR
import Testing

/// docs/LIMITS.md, "Parser limits": each default CBOR decoder limit at its value and one past it.
@Suite("CBOR limits")
struct CBORLimitTests {
  /// A definite-length head with a 4-byte argument (RFC 8949 §3.1, additional information 26).
  static func head(_ major: UInt8, _ argument: Int) -> [UInt8] {
    [major << 5 | 26] + withUnsafeBytes(of: UInt32(argument).bigEndian, Array.init)
  }

  @Test("A string of exactly maxItemLength (16 MiB) bytes decodes; one byte more is refused")
  func itemLength() throws {
    let limit = CBORDecoder.Limits.default.maxItemLength
    #expect(limit == 16 << 20)
    let atLimit = Self.head(2, limit) + [UInt8](repeating: 0x61, count: limit)
    #expect(try CBOR.decode(atLimit).bytes?.count == limit)
    let past = Self.head(2, limit + 1) + [UInt8](repeating: 0x61, count: limit + 1)
    do {
      _ = try CBOR.decode(past)
      Issue.record("\(limit + 1) bytes decoded")
    } catch {
      #expect(error.code == .lengthTooLarge)
    }
  }

  @Test("An input of exactly maxTotalItems (4 Mi) data items decodes; one more is refused")
  func totalItems() throws {
    let limit = CBORDecoder.Limits.default.maxTotalItems
    #expect(limit == 1 << 22)
    // The array counts as one item, its members as the rest.
    let atLimit = Self.head(4, limit - 1) + [UInt8](repeating: 0x00, count: limit - 1)
    #expect(try CBOR.decode(atLimit).array?.count == limit - 1)
    let past = Self.head(4, limit) + [UInt8](repeating: 0x00, count: limit)
    do {
      _ = try CBOR.decode(past)
      Issue.record("\(limit + 1) items decoded")
    } catch {
      #expect(error.code == .tooManyItems)
    }
  }

  @Test("Nesting of exactly maxDepth (64) arrays decodes; 65 is refused")
  func depth() throws {
    #expect(CBORDecoder.Limits.default.maxDepth == 64)
    _ = try CBOR.decode([UInt8](repeating: 0x81, count: 64) + [0x00])
    do {
      _ = try CBOR.decode([UInt8](repeating: 0x81, count: 65) + [0x00])
      Issue.record("65 levels decoded")
    } catch {
      #expect(error.code == .nestingTooDeep)
    }
  }
}
