import DCJOSE
import DCJSON
import DCOpenID4VP
import DCOpenID4VPTestSupport
import DCVerifier
import Testing

/// `OpenID4VPProtocol.unverifiedRequestParameters(of:)`: the parameters each DC API request form
/// carries (OpenID4VP 1.0 Appendix A.3), as the consistency check and the verifier read them.
@Suite struct RequestParametersTests {
  @Test("Each request form yields the parameters its verifier sent")
  func formsYieldTheSentParameters() throws {
    let fixture = try Fixture()
    for signing in [
      RequestSigning.unsigned, .signed(fixture.signer), .multisigned([fixture.signer]),
    ] {
      let request = try fixture.makeRequest(signing, .dcAPI)
      let parameters = try request.protocolID.unverifiedRequestParameters(of: request.data)
      #expect(parameters["nonce"]?.string == request.state.nonce)
      #expect(parameters["dcql_query"] == Fixture.query)
    }
  }

  @Test("The multisigned form is read from the JWS JSON serialization given as text")
  func multisignedAsText() throws {
    let fixture = try Fixture()
    let request = try fixture.makeRequest(.multisigned([fixture.signer]), .dcAPI)
    let serialization = try #require(request.data["request"])
    let asText = JSONValue.object([("request", .string(serialization.serialized()))])
    let parameters = try OpenID4VPProtocol.multisigned.unverifiedRequestParameters(of: asText)
    #expect(parameters["nonce"]?.string == request.state.nonce)
  }

  @Test("Drafts, a signed form without its JWS and non-object parameters are refused")
  func refusals() {
    #expect(throws: OpenID4VPError.self) {
      try OpenID4VPProtocol.draft.unverifiedRequestParameters(of: ["nonce": "n"])
    }
    #expect(throws: OpenID4VPError.self) {
      try OpenID4VPProtocol.signed.unverifiedRequestParameters(of: ["nonce": "n"])
    }
    #expect(throws: OpenID4VPError.self) {
      try OpenID4VPProtocol.unsigned.unverifiedRequestParameters(of: .array([]))
    }
  }
}
