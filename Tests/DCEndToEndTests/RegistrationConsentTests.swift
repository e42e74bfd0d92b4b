import DCAPI
import DCTrust
import DCWallet
import DCWalletFixtureTestSupport
import DCX509
import Foundation
import Testing

@testable import DCWalletCLI

/// The consent screen shows the registration (registered name, purpose, privacy policy) and marks
/// over-asked claims; the command line's `--refuse-over-asking` and `--registrar-cert`.
@Suite struct RegistrationConsentTests {
  @Test func consentScreenShowsTheRegistrationAndMarksOverAsking() async throws {
    let setup = try await RegistrationSetup()
    defer { setup.fixture.dir.remove() }
    let wallet = try setup.fixture.wallet()
    let request = try await wallet.resolve(
      try setup.openID4VP(
        RegistrationSetup.sdJWTQuery(["given_name", "family_name"]),
        registration: try setup.registration()),
      origin: ConsentFixture.origin, policy: setup.policy())
    let screen = request.consentScreen(for: try request.proposedConsent())
    #expect(screen.contains("- registered as: Example Shop"))
    #expect(screen.contains("  purpose: Age verification"))
    #expect(screen.contains("  privacy policy: https://shop.example/privacy"))
    #expect(screen.contains("  OVER-ASKING (not registered): family_name"))
    let marked = screen.split(separator: "\n").filter { $0.contains("[OVER-ASKING") }
    #expect(marked.count == 1 && marked[0].contains("family_name"), "\(screen)")
    // Another relying party's certificate is called out.
    let other = try await wallet.resolve(
      try setup.openID4VP(
        RegistrationSetup.sdJWTQuery(["given_name"]),
        registration: try setup.registration(subject: "LEIXG-SOMEONEELSE00000000")),
      origin: ConsentFixture.origin, policy: setup.policy())
    #expect(
      other.consentScreen(for: try other.proposedConsent()).contains(
        "NOT the requester's registration"))
  }

  @Test func commandLineOptionsSetThePolicy() async throws {
    let setup = try await RegistrationSetup()
    defer { setup.fixture.dir.remove() }
    let pem = setup.fixture.dir.path + "/registrar.pem"
    try setup.providerRoot.pemString.write(toFile: pem, atomically: true, encoding: .utf8)
    let given: [(CommandSpec, [String])] = [
      (RespondCommand.spec, ["--origin", "https://x.example"]),
      (PresentURICommand.spec, ["openid4vp://"]),
      (PresentCommand.spec, ["--listen", "127.0.0.1:0"]),
    ]
    for (spec, positional) in given {
      let args = try spec.parse(positional + ["--refuse-over-asking", "--registrar-cert", pem])
      var policy = WalletPolicy()
      try RegistrationOptions.apply(args, to: &policy)
      #expect(policy.refusesOverAsking)
      #expect(
        policy.registrationCertificateProviders.anchors.map(\.certificate) == [setup.providerRoot])
      #expect(
        policy.registrationCertificateProviders.anchors.first?.purposes
          == [.registrationCertificateProvider])
    }
  }
}
