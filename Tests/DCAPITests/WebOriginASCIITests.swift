import DCAPI
import Testing

/// ASCII origins are read byte by byte: each check refuses with its own reason, the same the
/// character-based reading gives for other text.
@Suite("Web origins read as ASCII")
struct WebOriginASCIITests {
  @Test(
    "Each refusal names its check",
    arguments: [
      ("verifier.example", "no scheme"),
      ("https:/verifier.example", "no scheme"),
      ("ftp://verifier.example", "scheme must be https or http"),
      ("https://", "no host"),
      ("https:///", "no host"),
      ("https://verifier.example/path", "an origin has no path, query, fragment or credentials"),
      ("https://verifier.example?x", "an origin has no path, query, fragment or credentials"),
      ("https://verifier.example#x", "an origin has no path, query, fragment or credentials"),
      ("https://user@verifier.example", "an origin has no path, query, fragment or credentials"),
      ("https://verifier\\example", "an origin has no path, query, fragment or credentials"),
      ("https://verifier .example", "an origin has no path, query, fragment or credentials"),
      ("https://[::1", "unclosed IPv6 literal"),
      ("https://[::1]8443", "bad port"),
      ("https://verifier.example:08443", "a serialized port has no leading zero"),
      ("https://verifier.example:x", "a port is one or more ASCII digits"),
      ("https://:8443", "empty host"),
      ("https://verifier_example", "host has characters a serialized origin cannot have"),
      ("https://.verifier.example", "host has characters a serialized origin cannot have"),
      ("https://verifier..example", "host has characters a serialized origin cannot have"),
      ("https://vérifier.example", "host has characters a serialized origin cannot have"),
    ])
  func refusals(input: String, reason: String) {
    #expect { try WebOrigin(input) } throws: {
      guard let error = $0 as? DigitalCredentialsError else { return false }
      return error.code == .invalidOrigin
        && error.reason == "\"\(input)\" is not a web origin: \(reason)"
    }
  }

  @Test(
    "Accepted origins are lowercased, lose one trailing slash and their default port",
    arguments: [
      ("HTTPS://Verifier.Example", "https://verifier.example"),
      ("https://verifier.example/", "https://verifier.example"),
      ("https://verifier.example:443/", "https://verifier.example"),
      ("http://verifier.example:80", "http://verifier.example"),
      ("http://Verifier.Example:8080", "http://verifier.example:8080"),
      ("https://[::1]", "https://[::1]"),
      ("https://[::1]:8443/", "https://[::1]:8443"),
      ("https://a-b.c1.example", "https://a-b.c1.example"),
    ])
  func accepted(input: String, expected: String) throws {
    #expect(try WebOrigin(input).serialized == expected)
  }
}
