import DCEncoding
import Testing

/// The encoding leaf's error has the shape of every module's error (issue 11, "errors keep their
/// cause"): a code to match on, a reason, the throw site, no cause of its own.
@Suite("EncodingError")
struct EncodingErrorTests {
  @Test("A base64url failure names its code, reason and throw site")
  func base64URL() throws {
    do {
      _ = try Base64URL.decode("!!")
      Issue.record("text that is not base64url was accepted")
    } catch {
      #expect(error.code == .invalidBase64)
      #expect(
        error.description
          == "EncodingError.invalidBase64: invalid base64url character at offset 0")
      #expect(error.file == "DCEncoding/Base64.swift")
      #expect(error.underlying == nil)
      #expect(error.debugDescription.hasPrefix(error.description + " (DCEncoding/Base64.swift:"))
    }
  }

  @Test("A hex failure names its code, reason and throw site")
  func hex() throws {
    do {
      _ = try Hex.decode("abc")
      Issue.record("odd-length hex was accepted")
    } catch {
      #expect(error.code == .invalidHex)
      #expect(error.description == "EncodingError.invalidHex: hex length 3 is odd")
      #expect(error.file == "DCEncoding/Hex.swift")
    }
  }

  @Test("Equality compares the code and reason, never the throw site")
  func equality() {
    let here = EncodingError(.invalidBase64, "x")
    let there = EncodingError(.invalidBase64, "x", file: "Elsewhere.swift", line: 7)
    #expect(here == there)
    #expect(Set([here, there]).count == 1)
    #expect(here != EncodingError(.invalidHex, "x"))
    #expect(here.file == "DCEncodingTests/EncodingErrorTests.swift")
  }
}
