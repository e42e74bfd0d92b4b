// Generated from Sources/DCIssuer/DCIssuer.docc/OpenID4VCIIssuer.md by .ci/extract-articles: its Swift snippets, in order,
// imports first. Do not edit: change the article and run the script.
// swift-format-ignore-file
import DCCrypto
import DCHTTP
import DCIssuer
import DCJSON
import DCOpenID4VCI
import DCX509
import Foundation

// MARK: snippet 1

func makeIssuer(url: String, signerKey: ECPrivateKey, chain: [Certificate], stateFile: String)
  throws -> (service: CredentialIssuerService, store: SQLiteIssuerStateStore)
{
  let mdl = IssuableCredential(
    id: "mDL",
    content: .mdoc(
      doctype: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        ("org.iso.18013.5.1", [("given_name", "Erika"), ("age_over_18", true)])
      ]),
    display: [CredentialDisplay(name: "Driving licence", locale: "en")])
  let configuration = IssuerConfiguration(
    credentialIssuer: try IssuerIdentifier(url),
    display: [IssuerDisplay(name: "Utopia Registry", locale: "en")],
    credentials: [mdl], batchSize: 10, signer: signerKey, certificateChain: chain,
    iacas: [chain[chain.count - 1]], statusLists: StatusListSettings(bits: 2, size: 16_384))
  let store = try SQLiteIssuerStateStore(path: stateFile)
  return (CredentialIssuerService(configuration: configuration, store: store), store)
}

// MARK: snippet 2
func offerWithCode(service: CredentialIssuerService) throws -> (link: String, code: String?) {
  let offer = try service.createOffer(
    configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: true))
  return (offer.uri, offer.transactionCode)
}

// MARK: snippet 3
func handle(_ handler: IssuerHTTPHandler, method: String, url: URL, body: [UInt8]) async
  -> HTTPResponse
{
  await handler.handle(HTTPRequest(method: HTTPMethod(method), url: url, body: body))
}

// MARK: snippet 4
func revoke(store: SQLiteIssuerStateStore, credentialID: String) throws {
  _ = try store.changeStatus(credentialID: credentialID, .revoke)
}
