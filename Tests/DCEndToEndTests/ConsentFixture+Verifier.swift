import DCAPI
import DCJSON
import DCOpenID4VP
import DCVerifier
import DCWalletFixtureTestSupport

// The verifier's side of the consent fixture (issue 27: the fixture itself is in
// DCWalletFixtureTestSupport, which does not import DCVerifier).
extension ConsentFixture {
  var signer: RequestSigner {
    .x509SANDNS(
      dnsName: "verifier.example", certificateChain: [verifierCertificate], signer: verifierKey)
  }

  var strangerSigner: RequestSigner {
    .x509SANDNS(
      dnsName: "verifier.example", certificateChain: [strangerCertificate], signer: strangerKey)
  }

  /// An OpenID4VP request for a DCQL query, and its envelope.
  func request(_ query: JSONValue, signing: RequestSigning = .unsigned) throws
    -> (sent: VerifierRequest, envelope: RequestEnvelope)
  {
    let sent = try VerifierRequest(
      dcqlQuery: query, origin: Self.origin, responseMode: .dcAPI, signing: signing)
    return (
      sent,
      RequestEnvelope(requests: [
        ProtocolRequest(protocolIdentifier: sent.protocolID.rawValue, data: sent.data)
      ])
    )
  }
}
