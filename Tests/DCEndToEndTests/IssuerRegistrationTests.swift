import DCIssuer
import DCOpenID4VCI
import DCTrust
import DCWallet
import DCWalletFixtureTestSupport
import DCX509
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

  /// The issuer's registration before issuance (issue 29): absent, invalid (untrusted
  /// registrar), another party's (registers none of the offered credentials), and the issuer's
  /// own, registering the mDL but not the PID.
  @Test func issuerRegistrationCheck() async throws {
    let registration = try await RegistrationSetup()
    defer { registration.fixture.dir.remove() }
    let wallet = try registration.fixture.wallet()
    let providers = registration.policy().registrationCertificateProviders.anchors
    var builder = RegistrationCertificateBuilder(
      subject: "LEIXG-ISSUER", name: "Utopia DMV",
      issuedAt: registration.fixture.now.addingTimeInterval(-3_600),
      expiresAt: registration.fixture.now.addingTimeInterval(86_400 * 90))
    builder.providedAttestations = [
      RegisteredCredential(format: "mso_mdoc", docType: "org.iso.18013.5.1.mDL", claims: nil)
    ]
    let own = try builder.signedJWT(
      signer: registration.providerKey, chain: [registration.provider])
    func check(
      _ certificate: [UInt8]?, _ ids: [String], trusted: Bool = true, signer: Certificate? = nil
    ) async throws -> IssuerRegistrationCheck {
      let issuer = try IssuanceAgainstIssuerServiceTests.setup {
        $0.registrationCertificate = certificate
      }
      let issuance = WalletIssuance(wallet: wallet, client: issuer.client)
      var context = try await issuer.client.issuerMetadata(
        try IssuerIdentifier(IssuanceAgainstIssuerServiceTests.issuerID, policy: .development))
      // As signed metadata verified with this x5c leaf would set it (OpenID4VCI §12.2.3).
      context.metadataSignerChain = signer.map { [$0] } ?? []
      return try await issuance.issuerRegistration(
        context, configurationIDs: ids, extraProviders: trusted ? providers : [])
    }
    let absent = try await check(nil, ["mDL"])
    #expect(absent == .absent)
    #expect(absent.refusalReason == "the issuer publishes no registration certificate")
    let untrusted = try await check(own, ["mDL"], trusted: false)
    guard case .invalid(let error) = untrusted else {
      Issue.record("an untrusted registrar's certificate is not invalid: \(untrusted)")
      return
    }
    #expect(error.code == .untrustedSigner)
    #expect(untrusted.refusalReason != nil)
    let other = try await check(try registration.registration(), ["mDL"])
    #expect(other.certificate?.name == "Example Shop")
    #expect(other.refusalReason == "Example Shop is not registered to issue org.iso.18013.5.1.mDL")
    let registered = try await check(own, ["mDL"])
    #expect(registered.certificate?.name == "Utopia DMV")
    #expect(registered.refusalReason == nil)
    // Metadata signed by another party's access certificate: the registration is not bound.
    let foreign = try await check(own, ["mDL"], signer: registration.verifierAccess)
    #expect(
      foreign.refusalReason?.hasPrefix(
        "the registration of Utopia DMV does not belong to the issuer")
        == true)
    builder.subject = RegistrationSetup.relyingParty
    let matching = try builder.signedJWT(
      signer: registration.providerKey, chain: [registration.provider])
    let bound = try await check(matching, ["mDL"], signer: registration.verifierAccess)
    #expect(bound.refusalReason == nil)
    let pid = try await check(own, ["mDL", "pid"])
    #expect(pid.refusalReason == "Utopia DMV is not registered to issue urn:eudi:pid:1")
  }
}
