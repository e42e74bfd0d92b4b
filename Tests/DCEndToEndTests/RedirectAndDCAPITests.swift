import DCAPI
import DCJSON
import DCWallet
import DCWalletFixtureTestSupport
import Testing

/// The redirect flow and the DC API kept apart, with a DC API request a verifier made (issue 27:
/// from DCWalletTests' RedirectPresentationTests, whose verifier is a test double).
@Suite("Redirect flows and the DC API do not mix")
struct RedirectAndDCAPITests {
  @Test("a DC API request is not posted, and a redirect request is not answered as a DC API one")
  func kindsDoNotMix() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    let request = try await setup.resolve()
    let consent = try request.proposedConsent()
    let redirectAsDCAPI = await #expect(throws: WalletError.self) {
      _ = try await setup.wallet.respond(to: request, consent: consent)
    }
    #expect(redirectAsDCAPI?.code == .invalidInput)
    #expect(request.declinedResponse() == nil)
    let (_, envelope) = try setup.fixture.request(["credentials": [ConsentFixture.pidSDJWTQuery]])
    let dcAPI = try await setup.wallet.resolve(envelope, origin: ConsentFixture.origin)
    let dcAPIConsent = try dcAPI.proposedConsent()
    let dcAPIPosted = await #expect(throws: WalletError.self) {
      _ = try await setup.wallet.respond(to: dcAPI, consent: dcAPIConsent, httpClient: setup.client)
    }
    #expect(dcAPIPosted?.code == .invalidInput)
    #expect(setup.responses.isEmpty)
  }
}
