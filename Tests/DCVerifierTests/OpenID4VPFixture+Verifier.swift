import DCAPI
import DCJSON
import DCOpenID4VP
import DCOpenID4VPTestSupport
import DCVerifier
import DCWalletTestSupport
import Foundation

// The verifier's side of the OpenID4VP fixture (issue 27: the fixture itself is in
// DCOpenID4VPTestSupport, which does not import DCVerifier).
extension Fixture {
  var signer: RequestSigner {
    .x509SANDNS(dnsName: Self.dnsName, certificateChain: [verifierCertificate], signer: verifierKey)
  }

  func makeRequest(
    _ signing: RequestSigning, _ mode: ResponseMode, transactionData: [JSONValue] = []
  ) throws -> VerifierRequest {
    try VerifierRequest(
      dcqlQuery: Self.query, origin: Self.origin, responseMode: mode, signing: signing,
      transactionData: transactionData)
  }

  func parse(
    _ request: VerifierRequest, origin: String = Fixture.origin,
    supportedTransactionDataTypes: Set<String> = [Fixture.paymentType]
  ) throws -> AuthorizationRequest {
    try parse(
      protocol: request.protocolID, data: request.data, origin: origin,
      supportedTransactionDataTypes: supportedTransactionDataTypes)
  }

  func verify(_ data: JSONValue, state: VerifierState) throws -> VerifiedAuthorizationResponse {
    try state.verifyResponse(
      data, sdJWTIssuerAnchors: [pidRoot], mdocIssuerAnchors: [pki.iaca], now: now)
  }
}
