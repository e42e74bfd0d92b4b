// Generated from Sources/DCWallet/DCWallet.docc/AndroidCredentialManager.md by .ci/extract-articles: its Swift snippets, in order,
// imports first. Do not edit: change the article and run the script.
// swift-format-ignore-file
import DCAPI
import DCJSON
import DCRegistration
import DCWallet

// MARK: snippet 1

func androidRegistry(wallet: Wallet) async throws -> [UInt8] {
  let descriptions = try await wallet.registrationDescriptions()
  return try AndroidRegistry.data(for: descriptions, matcher: .multipaz)
}

// MARK: snippet 2

func answerAndroidRequest(wallet: Wallet, requestJSON: [UInt8], origin: String) async throws
  -> [UInt8]
{
  let request = try await wallet.resolve(RequestEnvelope(json: requestJSON), origin: origin)
  let response = try await wallet.respond(to: request, consent: try request.proposedConsent())
  // The Kotlin side returns this as the DigitalCredential's response JSON.
  return response.json.serializedBytes()
}
