import DCCBOR
import DCTestSupport
import Foundation
import Testing

/// Inputs the `cbor` fuzz target found (issue 12), each kept as a regression test.
@Suite("CBOR fuzz regressions")
struct CBORFuzzRegressionTests {
  @Test("A map key nesting exactly maxKeyDepth (4) levels decodes; 5 levels are refused")
  func keyDepth() throws {
    #expect(CBORDecoder.Limits.default.maxKeyDepth == 4)
    // {[[[[0]]]]: 0}: the key is four nested arrays.
    let atLimit: [UInt8] = [0xa1] + [UInt8](repeating: 0x81, count: 4) + [0x00, 0x00]
    #expect(try CBOR.decode(atLimit).map?.count == 1)
    let past: [UInt8] = [0xa1] + [UInt8](repeating: 0x81, count: 5) + [0x00, 0x00]
    do {
      _ = try CBOR.decode(past)
      Issue.record("a key nesting 5 levels decoded")
    } catch {
      #expect(error.code == .nestingTooDeep)
    }
    // The same depth as a value (not a key) stays within maxDepth and decodes.
    let asValue: [UInt8] = [0xa1, 0x00] + [UInt8](repeating: 0x81, count: 5) + [0x00]
    #expect(try CBOR.decode(asValue).map?.count == 1)
  }

  /// Found by `fuzz/run.sh cbor` (2,676 bytes): maps nested as keys of maps, in non-deterministic
  /// form, so each level re-encoded the key below it; 0.8 s for this input under AddressSanitizer,
  /// growing with the square of the depth. Now refused by `maxKeyDepth` before the work grows.
  @Test("Maps nested as keys of maps are refused at maxKeyDepth (fuzz timeout, issue 12)")
  func keysInsideKeys() throws {
    let input = try VectorFile.bytes("fuzz-cbor-timeout-keys-in-keys", ext: "cbor", in: .module)
    do {
      _ = try CBOR.decode(input)
      Issue.record("the fuzz input decoded")
    } catch {
      #expect(error.code == .nestingTooDeep)
      #expect(error.reason.contains("map key"))
    }
  }
}
