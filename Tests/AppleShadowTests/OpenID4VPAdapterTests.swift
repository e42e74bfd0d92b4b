import DCAPI
import DCIdentityDocumentServicesBridge27_3
import DCWallet
import Foundation
import IdentityDocumentServices
import IdentityDocumentServicesUI
import Testing

/// `OpenID4VPRequestAdapter` (iOS 27.3) over the shadow `OpenID4VPRawRequestContext`.
@Suite("Apple shadow: OpenID4VP request adapter")
@MainActor
struct OpenID4VPAdapterTests {
  nonisolated static let requestData = Data(
    #"{"response_type": "vp_token", "nonce": "n-0S6_WzA2Mj", "dcql_query": {"credentials": []}}"#
      .utf8)

  func context(
    origin: URL? = URL(string: "https://verifier.example"), data: Data = requestData,
    presentment: ShadowPresentment = ShadowPresentment()
  ) -> OpenID4VPRawRequestContext {
    OpenID4VPRawRequestContext(
      shadowRequestData: data, requestingWebsiteOrigin: origin, presentment: presentment)
  }

  @Test(
    "The protocol is read from the request data, never from the undocumented exchangeProtocol",
    arguments: [
      (String(decoding: requestData, as: UTF8.self), "openid4vp-v1-unsigned"),
      (#"{"request": "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"}"#, "openid4vp-v1-signed"),
      (#"{"request": {"payload": "e30", "signatures": []}}"#, "openid4vp-v1-multisigned"),
    ])
  func exchangeProtocol(data: String, expected: String) throws {
    let adapter = try OpenID4VPRequestAdapter(context: context(data: Data(data.utf8)))
    #expect(adapter.protocolIdentifier.rawValue == expected)
    #expect(adapter.origin.serialized == "https://verifier.example")
    #expect(adapter.envelope.requests.map(\.protocolIdentifier) == [expected])
  }

  @Test("No requestingWebsiteOrigin: refused; data that is not a JSON object: refused")
  func refusals() {
    #expect {
      try OpenID4VPRequestAdapter(context: context(origin: nil))
    } throws: {
      ($0 as? DigitalCredentialsError)?.code == .invalidOrigin
    }
    #expect {
      try OpenID4VPRequestAdapter(context: context(data: Data("[1]".utf8)))
    } throws: {
      ($0 as? DigitalCredentialsError)?.code == .invalidRequest
    }
  }

  @Test("cancel() reaches the context")
  func cancel() throws {
    let presentment = ShadowPresentment()
    try OpenID4VPRequestAdapter(context: context(presentment: presentment)).cancel()
    #expect(presentment.events == [.cancelled])
  }
}
