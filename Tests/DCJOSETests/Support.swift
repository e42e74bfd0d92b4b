import DCCrypto
import DCJOSE
import DCJSON
import DCTestSupport
import Foundation
import Testing

/// Loads a vector file shipped in this target's `Vectors` folder, parsed with our own parser.
func loadVector(_ name: String) throws -> JSONValue {
  try JSONValue(parsing: VectorFile.bytes(name, in: .module))
}

/// Expects `body` to throw a `JOSEError` with `code`.
func expectJOSEError<T>(
  _ code: JOSEErrorCode, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> T
) {
  do {
    _ = try body()
    Issue.record("expected JOSEError.\(code), nothing was thrown", sourceLocation: sourceLocation)
  } catch let error as JOSEError {
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
  } catch {
    Issue.record("expected JOSEError.\(code), got \(error)", sourceLocation: sourceLocation)
  }
}

/// A deterministic random source for reproducible ephemeral keys and IVs (not for production).
struct CountingRandom: RandomSource {
  let seed: UInt8
  func bytes(count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) }
  }
}

extension String {
  var bytes: [UInt8] { Array(utf8) }
}
