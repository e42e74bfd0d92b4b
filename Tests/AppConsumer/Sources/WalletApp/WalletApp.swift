// A holder wallet app: opens its wallet home, imports and lists credentials, answers a
// Digital Credentials API request for the origin the OS reported, presents from an
// openid4vp:// link, takes credentials from an OpenID4VCI offer, refreshes their status, and
// presents in person (ISO 18013-5).
import DCAPI
import DCCrypto
import DCHTTP
import DCWallet
import DCX509
import Foundation

/// The README's "The library, for a wallet app", as written there.
func readmeWalletSnippet(
  appGroupPath: String, requestBytes: [UInt8], origin: String
) async throws -> ProtocolResponse {
  let wallet = try Wallet(home: WalletHome(directory: appGroupPath))
  // The OS hands over the request and the origin; the origin never comes from the payload.
  let request = try await wallet.resolve(RequestEnvelope(json: requestBytes), origin: origin)
  // Show request.requester, .requesterAuthentication, .documents (claims, candidates), .credentialSets.
  let consent = try request.consent(
    ConsentSelection(claims: [.mdoc(nameSpace: "org.iso.18013.5.1", element: "age_over_18")]))
  let response = try await wallet.respond(to: request, consent: consent)
  // Hand response.json back to the OS.
  return response
}

/// The wallet of the app: one home, the policy the user chose.
struct WalletApp {
  let wallet: Wallet
  let http = URLSessionHTTPClient()

  init(home directory: String) throws {
    wallet = try Wallet(
      home: WalletHome(directory: directory),
      policy: WalletPolicy(requireAuthenticatedRequester: true))
  }

  /// Settings: the issuer and reader roots the wallet trusts.
  func trust(issuerRoot: [UInt8], readerRoot: [UInt8]) async throws {
    _ = try await wallet.addTrustAnchor(Certificate(derEncoded: issuerRoot), role: .issuer)
    _ = try await wallet.addTrustAnchor(Certificate(derEncoded: readerRoot), role: .reader)
  }

  /// Imports an mdoc and an SD-JWT VC, each bound to a new device key, and lists the wallet.
  func importCredentials(mdoc: [UInt8], sdJWT: String) async throws -> [String] {
    let mdl = try await wallet.importMdoc(mdoc, deviceKey: ECPrivateKey(curve: .p256), id: "mdl")
    let pid = try await wallet.importSDJWT(sdJWT, deviceKey: ECPrivateKey(curve: .p256))
    var rows: [String] = []
    for credential in try await wallet.credentials() {
      rows.append("\(credential.id): \(credential.display.title) (\(credential.type))")
    }
    _ = (mdl.id, pid.format)
    return rows
  }

  /// A DC API request from the browser: the consent screen's content, then the answer.
  func answer(_ requestJSON: [UInt8], origin: String) async throws -> ProtocolResponse {
    let request = try await wallet.resolve(RequestEnvelope(json: requestJSON), origin: origin)
    switch request.requesterAuthentication {
    case .trusted: break
    case .untrusted(let reason), .invalid(let reason): print("warning: \(reason)")
    case .absent: print("the requester is not identified")
    }
    print(request.requester.verifiedName ?? request.requester.origin?.serialized ?? "-")
    for document in request.documents {
      print(document.types, document.candidates.count, "candidates")
    }
    for set in request.credentialSets where set.required {
      print("one of", set.options)
    }
    guard !request.documents.isEmpty else {
      // Nothing to share: tell the verifier, if the protocol can.
      return request.declinedResponse(reason: "nothing to share")
        ?? ProtocolResponse(protocolIdentifier: request.protocolIdentifier, data: .null)
    }
    let consent = try request.proposedConsent()
    return try await wallet.respond(to: request, consent: consent)
  }

  /// An `openid4vp://` link or QR code (OpenID4VP redirect flow).
  func present(link: String) async throws -> URL? {
    let request = try await wallet.resolve(authorizationRequestURI: link, httpClient: http)
    let consent = try request.proposedConsent()
    let outcome = try await wallet.respond(to: request, consent: consent, httpClient: http)
    return outcome.redirectURI
  }

  /// Declines an `openid4vp://` request: the verifier is told access_denied.
  func decline(link: String) async throws {
    let request = try await wallet.resolve(authorizationRequestURI: link, httpClient: http)
    _ = try await wallet.decline(request, reason: "the holder declined", httpClient: http)
  }

  /// Takes credentials from an OpenID4VCI offer (pre-authorized, with a transaction code).
  func issue(offerURI: String, transactionCode: String?) async throws -> [String] {
    let issuance = WalletIssuance(
      wallet: wallet, client: IssuanceClient(http: http, configuration: .init()))
    let offer = try await issuance.client.resolveOffer(offerURI)
    let result = try await issuance.issuePreAuthorized(
      offer: offer, txCode: transactionCode, options: IssuanceClient.Options(batchSize: 3))
    for failure in result.failed { print(failure.configurationID, failure.reason) }
    return result.stored.map(\.id)
  }

  /// Refreshes the Token Status List status of every credential.
  func refreshStatus() async throws {
    let checker = try await wallet.statusListChecker(httpClient: http)
    for credential in try await wallet.credentials() {
      let record = try await wallet.refreshStatus(credentialID: credential.id, checker: checker)
      print(credential.id, record.outcome, record.checkedAt)
    }
  }

  /// The activity log.
  func activity() async throws -> [String] {
    try await wallet.activity().map { "\($0.outcome.rawValue) \($0.origin ?? "-")" }
  }
}
