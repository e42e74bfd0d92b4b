import DCCBOR
import Foundation
import Testing

/// Duplicate map keys (RFC 8949 §5.6) are rejected wherever they appear, also after a run of keys
/// in increasing deterministic order (RFC 8949 §4.2.1), which the decoder checks without
/// comparing each key with the earlier ones.
struct MapKeyRunTests {
  func decodeError(_ hex: String) -> CBORError? {
    do {
      _ = try CBOR.decode([UInt8](hex: hex))
      return nil
    } catch {
      return error
    }
  }

  /// A map of `count` pairs `i: 0` for the given key encodings (each an unsigned integer).
  func map(_ keys: [String]) -> String {
    precondition(keys.count < 24)
    return String(format: "%02x", 0xa0 + keys.count) + keys.map { $0 + "00" }.joined()
  }

  @Test func increasingKeysDecode() {
    #expect(decodeError(map(["01", "02", "03", "1818", "1819"])) == nil)
  }

  @Test func aKeyRepeatedAfterAnIncreasingRunIsADuplicate() {
    // 1, 2, 3, then 1 again: the fourth key breaks the run and matches the first.
    let error = decodeError(map(["01", "02", "03", "01"]))
    #expect(error?.code == .duplicateMapKey)
    #expect(error?.offset == 7)
    // The run breaks earlier, and the duplicate comes later.
    #expect(decodeError(map(["01", "03", "02", "04", "03"]))?.code == .duplicateMapKey)
  }

  @Test func aLongerKeyEncodingOfAnEarlierKeyIsADuplicate() {
    // 0x1801 is bytewise after 0x02, so the order holds, but it is 1 in a longer form.
    let error = decodeError(map(["01", "02", "1801"]))
    #expect(error?.code == .duplicateMapKey)
    #expect(error?.offset == 5)
  }

  @Test func aDuplicateAfterManyIncreasingKeysIsFound() {
    // 70 increasing keys (past the point where seen keys are hashed), then the first again.
    var pairs = ""
    for key in 0..<70 {
      pairs += (key < 24 ? String(format: "%02x", key) : String(format: "18%02x", key)) + "00"
    }
    #expect(decodeError("b846" + pairs) == nil)
    let error = decodeError("b847" + pairs + "0000")
    #expect(error?.code == .duplicateMapKey)
    #expect(error?.offset == 2 + 24 * 2 + 46 * 3)
  }

  @Test func aDuplicateAmongFewUnorderedKeysIsFound() {
    // 2, 1, 3 (the run ends at 1), then 1 again: compared in place with the keys before.
    let error = decodeError(map(["02", "01", "03", "01"]))
    #expect(error?.code == .duplicateMapKey)
    #expect(error?.offset == 7)
    #expect(decodeError(map(["02", "01", "03", "00"])) == nil)
  }

  @Test func aDuplicateAmongManyUnorderedKeysIsFound() {
    // 20, then 0 to 19 (the run ends at 0), then 5 again; and 70 keys in decreasing order
    // (past the point where seen keys are hashed), then the last again.
    var keys = ["14"] + (0..<20).map { String(format: "%02x", $0) }
    #expect(decodeError("b5" + keys.map { $0 + "00" }.joined()) == nil)
    keys.append("05")
    #expect(decodeError("b6" + keys.map { $0 + "00" }.joined())?.code == .duplicateMapKey)
    let decreasing = (0..<70).reversed().map {
      $0 < 24 ? String(format: "%02x", $0) : String(format: "18%02x", $0)
    }
    #expect(decodeError("b846" + decreasing.map { $0 + "00" }.joined()) == nil)
    let repeated = decreasing + ["00"]
    #expect(decodeError("b847" + repeated.map { $0 + "00" }.joined())?.code == .duplicateMapKey)
    let repeatedLong = decreasing + ["1800"]
    #expect(
      decodeError("b847" + repeatedLong.map { $0 + "00" }.joined())?.code == .duplicateMapKey)
  }

  @Test func aLongerKeyEncodingAfterTheRunEndsIsADuplicate() {
    // 2, 1 (the run ends), then 1 in a longer form; and the longer form first, then 1.
    #expect(decodeError(map(["02", "01", "1801"]))?.code == .duplicateMapKey)
    #expect(decodeError(map(["02", "1801", "01"]))?.code == .duplicateMapKey)
    #expect(decodeError(map(["02", "1801", "00"])) == nil)
  }

  @Test func keysOfNestedMapsDoNotMixWithTheOuterMapsKeys() {
    // {2: {1: 0, 0: 0}, 1: 0, 0: 0} decodes; {2: {1: 0, 0: 0}, 1: 0, 2: 0} repeats 2.
    #expect(decodeError("a302a2010000000100" + "0000") == nil)
    let error = decodeError("a302a2010000000100" + "0200")
    #expect(error?.code == .duplicateMapKey)
    #expect(error?.offset == 9)
  }
}
