import DCJSON
import DCQL
import DCTestSupport
import Foundation
import Testing

/// Loads a vector file shipped in this target's `Vectors` folder with the strict `JSON` parser.
func loadVector(_ name: String) throws -> JSONValue {
  try JSONValue(parsing: VectorFile.bytes(name, in: .module))
}

/// Parses a query written as JSON text in a test.
func query(_ text: String) throws -> DCQLQuery {
  try DCQLQuery(jsonData: Data(text.utf8))
}

/// Expects `body` to throw a `DCQLError` with `code`; returns the error for further checks.
@discardableResult
func expectDCQLError<T>(
  _ code: DCQLErrorCode, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> T
) -> DCQLError? {
  do {
    _ = try body()
    Issue.record("expected DCQLError.\(code), nothing was thrown", sourceLocation: sourceLocation)
  } catch let error as DCQLError {
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    return error
  } catch {
    Issue.record("expected DCQLError.\(code), got \(error)", sourceLocation: sourceLocation)
  }
  return nil
}

extension ClaimPath {
  /// The path with indices written as decimal strings, the form of `dcql-matching.json`.
  var stringComponents: [String] {
    components.map {
      switch $0 {
      case .key(let k): k
      case .index(let i): String(i)
      }
    }
  }
}

/// A concrete path from keys and indices, for expectations.
func concrete(_ parts: Any...) -> ClaimPath {
  ClaimPath(
    parts.map { part -> ClaimPath.Component in
      if let i = part as? Int { return .index(i) }
      return .key("\(part)")
    })
}
