// Generated from Sources/DCWallet/DCWallet.docc/ReceivingCredentials.md by .ci/extract-articles: its Swift snippets, in order,
// imports first. Do not edit: change the article and run the script.
// swift-format-ignore-file
import DCAPI
import DCHTTP
import DCWallet
import Foundation

// MARK: snippet 1

func receive(wallet: Wallet, offerLink: String, transactionCode: String?) async throws -> [String] {
  let issuance = WalletIssuance(
    wallet: wallet, client: IssuanceClient(http: URLSessionHTTPClient()))
  let offer = try await issuance.client.resolveOffer(offerLink)
  let result = try await issuance.issuePreAuthorized(
    offer: offer, txCode: transactionCode, options: IssuanceClient.Options(batchSize: 3))
  for failure in result.failed {
    print("not stored:", failure.configurationID, failure.reason)
  }
  return result.stored.map(\.id)
}

// MARK: snippet 2

func receiveWithSignIn(
  wallet: Wallet, offerLink: String, openBrowser: (URL) async throws -> URL
) async throws -> [String] {
  let issuance = WalletIssuance(
    wallet: wallet, client: IssuanceClient(http: URLSessionHTTPClient()))
  let offer = try await issuance.client.resolveOffer(offerLink)
  let pending = try await issuance.beginAuthorization(offer: offer)
  let redirect = try await openBrowser(pending.authorizationURL)
  let result = try await issuance.completeAuthorization(pending, redirect: redirect)
  return result.stored.map(\.id)
}

// MARK: snippet 3

func receiveFromPage(
  wallet: Wallet, request: [UInt8], origin: String, openBrowser: @escaping @Sendable (URL) async throws -> URL
) async throws -> ProtocolResponse {
  let offer = try DigitalCredentialOffer(json: request, origin: origin)
  let issuance = WalletIssuance(
    wallet: wallet, client: IssuanceClient(http: URLSessionHTTPClient()))
  // Pre-authorized offers need no browser; authorization code offers open one.
  let result = try await issuance.issue(offer, authorize: openBrowser)
  print("stored:", result.stored.map(\.id))
  return offer.response
}

// MARK: snippet 4
func collectDeferred(wallet: Wallet) async throws -> Int {
  let issuance = WalletIssuance(
    wallet: wallet, client: IssuanceClient(http: URLSessionHTTPClient()))
  let result = try await issuance.pollDeferred()
  return result.stored.count
}
