// Generated from Sources/DCWallet/DCWallet.docc/GettingStarted.md by .ci/extract-articles: its Swift snippets, in order,
// imports first. Do not edit: change the article and run the script.
// swift-format-ignore-file
import DCAPI
import DCCrypto
import DCWallet
import DCX509

// MARK: snippet 1

func openWallet(directory: String) throws -> Wallet {
  try Wallet(home: WalletHome(directory: directory))
}

// MARK: snippet 2
func setUp(wallet: Wallet, issuerRoot: [UInt8], readerRoot: [UInt8], mdoc: [UInt8]) async throws {
  _ = try await wallet.addTrustAnchor(Certificate(derEncoded: issuerRoot), role: .issuer)
  _ = try await wallet.addTrustAnchor(Certificate(derEncoded: readerRoot), role: .reader)
  let deviceKey = try ECPrivateKey(curve: .p256)
  _ = try await wallet.importMdoc(mdoc, deviceKey: deviceKey, id: "mdl")
}

// MARK: snippet 3
func answer(wallet: Wallet, requestJSON: [UInt8], origin: String) async throws -> ProtocolResponse {
  let request = try await wallet.resolve(RequestEnvelope(json: requestJSON), origin: origin)
  // The consent screen: who asks, how they were authenticated, what each credential would share.
  switch request.requesterAuthentication {
  case .trusted: break
  case .untrusted(let reason), .invalid(let reason): print("unverified requester: \(reason)")
  case .absent: print("only the origin identifies the requester")
  }
  for document in request.documents {
    print(document.types, "-", document.candidates.count, "matching credentials")
  }
  // The user accepts what is proposed (or picks credentials and claims: ConsentSelection).
  let consent = try request.proposedConsent()
  return try await wallet.respond(to: request, consent: consent)
}

// MARK: snippet 4
func askBeforeEverySignature(wallet: Wallet) async throws -> UserAuthenticationPolicy {
  try await wallet.setUserAuthenticationPolicy(.always)
  return try await wallet.userAuthenticationPolicy()  // .always, from the authenticated setting
}

// MARK: snippet 5
func strictWallet(directory: String) throws -> Wallet {
  try Wallet(
    home: WalletHome(directory: directory),
    policy: WalletPolicy(requireAuthenticatedRequester: true))
}
