import DCWallet
import DCWalletFixtureTestSupport
import Testing

@testable import DCWalletCLI

/// The command line's holder prompt for a redirect-flow request (issue 27: from DCWalletTests'
/// RedirectPresentationTests, as the prompt's words are the command line's, `HolderPromptText`).
@Suite("Redirect flows: the holder prompt's text")
struct RedirectHolderPromptTests {
  @Test("the holder prompt of a redirect_uri request names its client identifier, unverified")
  func redirectURIHolderPrompt() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    let authenticator = CountingAuthenticator()
    let wallet = try setup.fixture.wallet(authenticator: authenticator)
    let request = try await wallet.resolve(
      authorizationRequestURI: RedirectSetup.redirectURIRequest(), httpClient: setup.client)
    _ = try await wallet.respond(
      to: request, consent: try request.proposedConsent(), httpClient: setup.client)
    let clientID = "redirect_uri:\(RedirectSetup.responseURI)"
    #expect(authenticator.contexts.map(\.clientID) == [clientID])
    #expect(
      authenticator.contexts.map(HolderPromptText.describe) == [
        "Share 1 credential(s) with \(clientID) (unverified)"
      ])
  }
}
