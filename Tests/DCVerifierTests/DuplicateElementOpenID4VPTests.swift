import DCAPI
import DCCBOR
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCOpenID4VPTestSupport
import DCQL
import DCSDJWT
import DCVerifier
import DCWalletTestSupport
import Foundation
import Testing

/// Issue 10 §7.4: the OpenID4VP verifier refuses an mdoc presentation whose namespace repeats an
/// element identifier (the claims map would otherwise keep whichever came last).
@Suite("OpenID4VP verifier refuses duplicate element identifiers")
struct DuplicateElementOpenID4VPTests {
  @Test("An mDL presenting family_name twice is refused; the same flow with one verifies")
  func refused() throws {
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(.unsigned, .dcAPI)
    let request = try fixture.parse(sent)
    let issuer = MdocIssuer(
      signer: fixture.pki.dsKey, certificateChain: [fixture.pki.documentSigner])
    func answer(_ elements: [(identifier: String, value: CBOR)]) throws -> JSONValue {
      let mdoc = try issuer.issue(
        docType: "org.iso.18013.5.1.mDL", nameSpaces: [("org.iso.18013.5.1", elements)],
        deviceKey: fixture.deviceKey.publicKey,
        validity: ValidityInfo(
          signed: fixture.now, validFrom: fixture.now.addingTimeInterval(-3600),
          validUntil: fixture.now.addingTimeInterval(86_400)))
      let credentials: [any DCQLCredential] = [
        try SDJWTCredential(id: "stored-pid", sdJWT: fixture.pid),
        MdocCredential(id: "stored-mdl", issuerSigned: mdoc),
      ]
      var presentations: [String: [CredentialPresentation]] = [:]
      for (id, candidates) in request.dcqlQuery.evaluate(credentials).defaultSelection() {
        for candidate in candidates {
          switch credentials[candidate.credentialIndex] {
          case let credential as SDJWTCredential:
            presentations[id, default: []].append(
              credential.presentation(disclosing: candidate.disclosed, holderKey: fixture.holderKey)
            )
          case let credential as MdocCredential:
            presentations[id, default: []].append(
              credential.presentation(
                disclosing: candidate.disclosed, deviceKey: fixture.deviceKey))
          default:
            Issue.record("unexpected credential type")
          }
        }
      }
      return try request.respond(
        origin: try WebOrigin(Fixture.origin), presentations: presentations, now: fixture.now
      )
      .data
    }
    _ = try fixture.verify(
      try answer([("family_name", "Mustermann"), ("age_over_18", true)]), state: sent.state)
    let error = openID4VPError {
      _ = try fixture.verify(
        try answer([
          ("family_name", "Mustermann"), ("age_over_18", true), ("family_name", "Musterfrau"),
        ]), state: sent.state)
    }
    #expect(error?.code == .invalidPresentation)
    #expect(error?.reason.contains("more than once") == true, "\(String(describing: error))")
  }
}
