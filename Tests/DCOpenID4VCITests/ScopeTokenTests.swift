import DCOpenID4VCI
import Foundation
import Testing

/// `scope` is space-separated scope tokens (RFC 6749 §3.3). Found by the `vci-token-request` fuzz
/// target: `scope=+++++++` (seven spaces) read as no tokens, serialised back as an empty scope and
/// read again as absent, so a request changed on its way through. Empty tokens are now refused.
@Suite("OpenID4VCI scope tokens")
struct ScopeTokenTests {
  static let base = "grant_type=refresh_token&refresh_token=r-1"

  @Test func tokensReadAndRoundTrip() throws {
    let request = try TokenRequest(body: Array((Self.base + "&scope=openid+pid_sd_jwt").utf8))
    #expect(request.scope == ["openid", "pid_sd_jwt"])
    #expect(try TokenRequest(body: request.body) == request)
  }

  @Test(arguments: ["+++++++", "a++b", "+a", "a+", "a%22b", "a%5Cb", "a%0Ab"])
  func malformedScopesAreRefused(_ scope: String) {
    #expect(throws: OpenID4VCIError.self) {
      try TokenRequest(body: Array((Self.base + "&scope=" + scope).utf8))
    }
  }

  /// The fuzzer's input itself.
  @Test func theFuzzInputIsRefused() {
    let input =
      "grant_type=refresh_token&rent_pe=refresh_token&rent_type=refresh_token"
      + "&refresh_token=fresh_token=r-1&scope=+++++++"
    #expect(throws: OpenID4VCIError.self) { try TokenRequest(body: Array(input.utf8)) }
  }

  @Test func aTokenResponseScopeOfSpacesIsRefused() {
    let json = #"{"access_token":"a","token_type":"DPoP","scope":"  "}"#
    #expect(throws: OpenID4VCIError.self) { try TokenResponse(jsonBytes: Array(json.utf8)) }
    let good = #"{"access_token":"a","token_type":"DPoP","scope":"x y"}"#
    #expect((try? TokenResponse(jsonBytes: Array(good.utf8)))?.scope == ["x", "y"])
  }
}
