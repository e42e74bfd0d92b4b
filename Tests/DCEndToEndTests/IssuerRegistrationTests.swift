import DCIssuer
import DCOpenID4VCI
import DCTrust
import DCWallet
import DCWalletFixtureTestSupport
import Foundation
import Testing

/// The issuer publishes its registration certificate in `issuer_info`; the wallet's issuance
/// client reads it from the metadata and verifies it.
@Suite struct IssuerRegistrationTests {
  @Test func issuerInfoIsPublishedAndVerified() async throws {
    let registration = try await RegistrationSetup()
    defer { registration.fixture.dir.remove() }
    let certificate = try registration.registration(cwt: true)
    let issuer = try IssuanceAgainstIssuerServiceTests.setup {
      $0.registrationCertificate = certificate
    }
    let context = try await issuer.client.issuerMetadata(
      try IssuerIdentifier(IssuanceAgainstIssuerServiceTests.issuerID, policy: .development))
    let providers = registration.policy().registrationCertificateProviders
    let verified = try context.registrationCertificate(
      providers: providers, at: registration.fixture.now)
    #expect(verified?.name == "Example Shop")
    // Without a trusted provider it does not verify.
    #expect(throws: TrustError.self) {
      try context.registrationCertificate(providers: TrustSources(), at: registration.fixture.now)
    }
    // An issuer that publishes none.
    let plain = try IssuanceAgainstIssuerServiceTests.setup()
    let none = try await plain.client.issuerMetadata(
      try IssuerIdentifier(IssuanceAgainstIssuerServiceTests.issuerID, policy: .development))
    #expect(
      try none.registrationCertificate(providers: providers, at: registration.fixture.now) == nil)
  }
}
