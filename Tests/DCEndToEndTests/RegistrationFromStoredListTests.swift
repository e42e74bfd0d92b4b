import DCCrypto
import DCTrust
import DCWallet
import DCWalletFixtureTestSupport
import DCX509
import Foundation
import Testing

/// Issue 29: a registration-certificate provider named by a trusted list the wallet stored (a
/// LoTE of WRPRC providers) verifies a relying party's registration certificate without the app
/// configuring the provider; with the list's kind disabled, it does not.
@Suite struct RegistrationFromStoredListTests {
  @Test func storedListTrustsTheRegistrationProvider() async throws {
    let setup = try await RegistrationSetup()
    defer { setup.fixture.dir.remove() }
    let wallet = try setup.fixture.wallet()
    let operatorKey = try ECPrivateKey(curve: .p256)
    let now = setup.fixture.now
    let operatorCertificate = try CertificateBuilder(
      subject: DistinguishedName(commonName: "WRPRC Providers Operator"),
      publicKey: operatorKey.publicKey, notBefore: now.addingTimeInterval(-86_400),
      notAfter: now.addingTimeInterval(86_400 * 365)
    ).selfSigned(signer: operatorKey)
    let lote = try ETSIListContent(
      operatorName: "WRPRC Providers Operator", issued: now.addingTimeInterval(-60),
      nextUpdate: now.addingTimeInterval(86_400 * 30),
      entries: [
        .init(
          name: "Test Registrar",
          serviceTypeURI: ETSIServiceTypeURI.registrationCertificateIssuance,
          certificates: [setup.providerRoot])
      ]
    ).signedLoTE(signer: operatorKey, certificate: operatorCertificate)
    let envelope = try setup.openID4VP(
      RegistrationSetup.sdJWTQuery(["given_name"]), registration: try setup.registration())

    // No provider configured and no list: the registration is not verified.
    let before = try await wallet.resolve(envelope, origin: ConsentFixture.origin)
    if case .verified = before.registration { Issue.record("verified with no provider") }

    try await wallet.importTrustedList(
      lote, kind: .lote, operatorCertificates: [operatorCertificate])
    let listed = try await wallet.resolve(envelope, origin: ConsentFixture.origin)
    guard case .verified(let certificate, _, _) = listed.registration else {
      Issue.record("not verified through the stored list: \(listed.registration)")
      return
    }
    guard
      case .listEntry(.lote, _, _, "Test Registrar", .registrationCertificateProvider)? =
        certificate.decision.source
    else {
      Issue.record("the provider is not the list's entry: \(certificate.decision)")
      return
    }

    try await wallet.setTrustedListPolicy(TrustedListPolicy(disabledKinds: [.lote]))
    let disabled = try await wallet.resolve(envelope, origin: ConsentFixture.origin)
    if case .verified = disabled.registration { Issue.record("verified through a disabled list") }
  }
}
