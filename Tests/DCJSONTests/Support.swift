import DCJSON
import Testing

/// Expects `body` to throw a `JSONError` with `code`.
func expectJSONError<T>(
  _ code: JSONErrorCode, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> T
) {
  do {
    _ = try body()
    Issue.record("expected JSONError.\(code), nothing was thrown", sourceLocation: sourceLocation)
  } catch let error as JSONError {
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
  } catch {
    Issue.record("expected JSONError.\(code), got \(error)", sourceLocation: sourceLocation)
  }
}
