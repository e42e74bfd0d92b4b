import DCOpenID4VP
import DCOpenID4VPTestSupport
import Testing

/// OpenID4VP errors keep their cause (issue 11) on a verifier's multisigned request (issue 27:
/// from DCOpenID4VPTests' ErrorCauseTests; the request is built with HAIPConformanceTests'
/// helpers, over the verifier's `VerifierRequest`).
struct MultisignedErrorCauseTests {
  /// A multisigned request whose signatures all fail: the failure that decided the code is the
  /// cause, and its own cause (the signature check) is kept under it.
  @Test func multisignedRefusalKeepsTheDecidingFailure() throws {
    let fixture = try Fixture()
    let payload = try HAIPConformanceTests.multisignedPayload(fixture)
    let signer = (
      fixture.verifierKey, [fixture.verifierCertificate], "x509_san_dns:verifier.example"
    )
    var data = try HAIPConformanceTests.multisigned(payload, signers: [signer, signer])
    data = try HAIPConformanceTests.corruptingSignature(
      HAIPConformanceTests.corruptingSignature(data, at: 0), at: 1)
    let error = try #require(HAIPConformanceTests().refusal(fixture, .multisigned, data: data))
    #expect(error.code == .invalidRequestSignature)
    let deciding = try #require(error.underlying as? OpenID4VPError)
    #expect(deciding.code == .invalidRequestSignature)
    #expect(deciding.underlying != nil)
  }
}
