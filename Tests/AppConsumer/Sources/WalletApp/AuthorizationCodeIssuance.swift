// OpenID4VCI with an authorization code: the app opens the issuer's authorization page in a
// browser session and hands the redirect back; deferred credentials are polled later.
import DCWallet
import Foundation

extension WalletApp {
  /// Starts an authorization code issuance: the URL to open in the browser.
  func beginIssuance(offerURI: String) async throws -> PendingAuthorization {
    let issuance = WalletIssuance(
      wallet: wallet, client: IssuanceClient(http: http, configuration: .init()))
    let offer = try await issuance.client.resolveOffer(offerURI)
    let pending = try await issuance.beginAuthorization(offer: offer)
    print("open", pending.authorizationURL)
    return pending
  }

  /// The browser came back to the app's redirect URI: finish and store.
  func finishIssuance(_ pending: PendingAuthorization, redirect: URL) async throws -> [String] {
    let issuance = WalletIssuance(
      wallet: wallet, client: IssuanceClient(http: http, configuration: .init()))
    let result = try await issuance.completeAuthorization(pending, redirect: redirect)
    return result.stored.map(\.id) + result.deferred.map(\.id)
  }

  /// Polls the issuances the issuer deferred.
  func pollDeferred() async throws -> Int {
    let issuance = WalletIssuance(
      wallet: wallet, client: IssuanceClient(http: http, configuration: .init()))
    return try await issuance.pollDeferred().stored.count
  }
}
