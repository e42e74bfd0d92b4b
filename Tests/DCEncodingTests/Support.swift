import DCEncoding
import Testing

/// Expects `body` to throw an `EncodingError` with `code`.
func expectEncodingError<T>(
  _ code: EncodingErrorCode, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> T
) {
  do {
    _ = try body()
    Issue.record(
      "expected EncodingError.\(code), nothing was thrown", sourceLocation: sourceLocation)
  } catch let error as EncodingError {
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
  } catch {
    Issue.record("expected EncodingError.\(code), got \(error)", sourceLocation: sourceLocation)
  }
}
