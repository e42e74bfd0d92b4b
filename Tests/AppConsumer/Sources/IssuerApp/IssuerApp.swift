// An issuer: configures what it issues, creates offers, serves the OpenID4VCI endpoints from its
// own HTTP server, and publishes and changes the status of what it issued (Token Status Lists).
import DCCrypto
import DCHTTP
import DCIssuer
import DCJSON
import DCOpenID4VCI
import DCX509
import Foundation

/// The issuer of the app: its configuration, its state, and the handler its server mounts.
struct IssuerApp {
  let service: CredentialIssuerService
  let store: SQLiteIssuerStateStore
  let handler: IssuerHTTPHandler

  init(url: String, signerKey: ECPrivateKey, chain: [Certificate], stateFile: String) throws {
    let mdl = IssuableCredential(
      id: "mDL",
      content: .mdoc(
        doctype: "org.iso.18013.5.1.mDL",
        nameSpaces: [
          (
            "org.iso.18013.5.1",
            [("family_name", "Mustermann"), ("given_name", "Erika"), ("age_over_18", true)]
          )
        ]),
      display: [CredentialDisplay(name: "Driving licence", locale: "en")])
    let pid = IssuableCredential(
      id: "pid",
      content: .sdJWT(
        vct: "urn:eudi:pid:1",
        claims: .object([("given_name", "Erika"), ("family_name", "Mustermann")])),
      validity: 30 * 86_400)
    var configuration = IssuerConfiguration(
      credentialIssuer: try IssuerIdentifier(url),
      display: [IssuerDisplay(name: "Utopia Registry", locale: "en")],
      credentials: [mdl, pid], batchSize: 10, signer: signerKey, certificateChain: chain,
      iacas: [chain[chain.count - 1]], statusLists: StatusListSettings(bits: 2, size: 16_384))
    configuration.sdJWTSigning = IssuerSigningIdentity(signer: signerKey, certificateChain: chain)
    store = try SQLiteIssuerStateStore(path: stateFile)
    service = CredentialIssuerService(configuration: configuration, store: store)
    handler = IssuerHTTPHandler(service: service)
  }

  /// A pre-authorized offer with a transaction code, shown as a QR code or link.
  func offer() throws -> (uri: String, transactionCode: String?) {
    let created = try service.createOffer(
      configurationIDs: ["mDL", "pid"], grant: .preAuthorized(transactionCode: true))
    return (created.uri, created.transactionCode)
  }

  /// An authorization code offer, by reference.
  func authorizationCodeOffer() throws -> String {
    try service.createOffer(
      configurationIDs: ["pid"], grant: .authorizationCode, byReference: true
    ).uri
  }

  /// The app's HTTP server hands each request to the handler: metadata, token, credential,
  /// nonce, notification, deferred and status list endpoints.
  func serve(method: String, url: URL, headers: [(String, String)], body: [UInt8]) async
    -> (status: Int, headers: [(String, String)], body: [UInt8])
  {
    var fields = HTTPFields()
    for (name, value) in headers { fields.append(name: name, value: value) }
    let response = await handler.handle(
      HTTPRequest(method: HTTPMethod(method), url: url, headers: fields, body: body))
    return (response.status, response.headers.map { ($0.name, $0.value) }, response.body)
  }

  /// What the issuer published: metadata, and where its status lists are.
  func metadata() -> (issuer: String, statusList: URL) {
    (service.issuerMetadata.credentialIssuer.description, service.endpoints.statusListURL(id: 0))
  }

  /// Revokes or suspends an issued credential; the next status list token says so.
  func changeStatus(credentialID: String, revoke: Bool) throws {
    let record = try store.changeStatus(
      credentialID: credentialID, revoke ? .revoke : .suspend)
    print(record.credentialID, record.listID, record.index, record.statusValue)
    for issued in try store.issuedCredentialStatuses() {
      print(issued.credentialID, issued.configurationID, issued.status)
    }
  }
}
