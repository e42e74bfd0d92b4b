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
  static let requestData = Data(
    #"{"response_type": "vp_token", "nonce": "n-0S6_WzA2Mj", "dcql_query": {"credentials": []}}"#
      .utf8)

  func context(
    _ exchangeProtocol: OpenID4VPExchangeProtocolIdentifier = .openID4VPv1Unsigned,
    origin: URL? = URL(string: "https://verifier.example"), data: Data = requestData,
    presentment: ShadowPresentment = ShadowPresentment()
  ) -> OpenID4VPRawRequestContext {
    OpenID4VPRawRequestContext(
      shadowRequestData: data, exchangeProtocol: exchangeProtocol, requestingWebsiteOrigin: origin,
      presentment: presentment)
  }

  @Test(
    "The exchange protocol is read from its description, never from case names",
    arguments: [
      (OpenID4VPExchangeProtocolIdentifier.openID4VPv1Unsigned, "openid4vp-v1-unsigned"),
      (.openID4VPv1Signed, "openid4vp-v1-signed"),
      (.openID4VPv1Multisigned, "openid4vp-v1-multisigned"),
    ])
  func exchangeProtocol(identifier: OpenID4VPExchangeProtocolIdentifier, expected: String) throws {
    let adapter = try OpenID4VPRequestAdapter(context: context(identifier))
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
