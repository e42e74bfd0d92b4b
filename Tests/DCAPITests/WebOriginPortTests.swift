import DCAPI
import Testing

/// Ports as an origin serialization writes them (WHATWG URL "port state" and URL serializing).
@Suite("Web origin ports")
struct WebOriginPortTests {
  @Test(
    "A port that no origin serialization writes is refused",
    arguments: [
      "https://verifier.example:+443", "https://verifier.example:-443",
      "https://verifier.example:0443", "https://verifier.example:08443",
      "https://verifier.example:00", "https://verifier.example:0",
      "https://verifier.example:", "https://verifier.example: 443",
      "https://verifier.example:443 ", "https://verifier.example:65536",
      "https://verifier.example:4294967739", "https://verifier.example:99999999999999999999",
      "https://verifier.example:4_43", "https://verifier.example:٤٤٣",
      "https://verifier.example:0x1bb", "https://[::1]:+8443", "https://[::1]:0443",
      "https://[::1]:", "https://[::1]:65536",
    ])
  func refused(input: String) {
    #expect { try WebOrigin(input) } throws: {
      ($0 as? DigitalCredentialsError)?.code == .invalidOrigin
    }
  }

  @Test(
    "Ports written in shortest decimal form, 1 to 65535, are kept unless default",
    arguments: [
      ("https://verifier.example:1", "https://verifier.example:1"),
      ("https://verifier.example:65535", "https://verifier.example:65535"),
      ("https://verifier.example:443", "https://verifier.example"),
      ("http://verifier.example:80", "http://verifier.example"),
      ("http://verifier.example:443", "http://verifier.example:443"),
      ("https://[::1]:10", "https://[::1]:10"),
    ])
  func accepted(input: String, expected: String) throws {
    #expect(try WebOrigin(input).serialized == expected)
  }
}
