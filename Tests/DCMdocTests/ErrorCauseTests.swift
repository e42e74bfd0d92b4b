import DCCBOR
import DCCOSE
import DCMdoc
import Testing

/// Errors keep their cause (issue 11) in Mdoc: a wrapped CBOR or COSE failure stays a value.
struct MdocErrorCauseTests {
  @Test func truncatedIssuerSignedKeepsTheCBORError() throws {
    // A map header that promises one pair and then ends (RFC 8949 §3: a truncated item).
    do {
      _ = try IssuerSigned(bytes: [0xA1])
      Issue.record("a truncated IssuerSigned was accepted")
    } catch {
      #expect(error.code == .malformed)
      #expect(error.underlying is CBORError, "\(String(reflecting: error))")
      #expect(error.file.hasPrefix("DCMdoc/"))
      #expect(String(reflecting: error).contains("caused by: "))
    }
  }

  @Test func equalityIgnoresTheCauseAndTheThrowSite() {
    let plain = MdocError(.malformed, "x")
    let wrapped = MdocError(.malformed, "x", underlying: CBORError(.truncated, reason: "y"))
    #expect(plain == wrapped)
    #expect(Set([plain, wrapped]).count == 1)
    #expect(plain != MdocError(.expired, "x"))
  }
}
