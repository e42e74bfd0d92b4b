import DCJOSE
import DCJSON
import DCSDJWT
import Testing

/// Errors keep their cause (issue 11) in SD-JWT.
struct SDJWTErrorCauseTests {
  @Test func badIssuerJWTKeepsTheJOSEAndJSONCause() throws {
    do {
      _ = try SDJWT(serialized: "e30.!!!.AAAA~")
      Issue.record("a payload that is not base64url was accepted")
    } catch {
      #expect(error.code == .malformed)
      #expect(error.file == "DCSDJWT/SDJWT.swift")
      let jose = try #require(error.underlying as? JOSEError)
      #expect(jose.file.hasPrefix("DCJOSE/"))
      #expect((jose.underlying as? JSONError)?.code == .invalidBase64)
    }
  }

  @Test func disclosureThatIsNotJSONKeepsTheParserError() throws {
    do {
      _ = try Disclosure(Base64URL.encode(Array("[1,".utf8)))
      Issue.record("a disclosure that is not JSON was accepted")
    } catch {
      #expect(error.code == .invalidDisclosure)
      #expect(error.file == "DCSDJWT/Disclosure.swift")
      #expect((error.underlying as? JSONError)?.code == .invalidJSON)
    }
  }
}
