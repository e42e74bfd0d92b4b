import DCCBOR
import DCCrypto
import DCHTTP
import DCIssuer
import DCJOSE
import DCJSON
import DCOpenID4VCI
import DCWalletTestSupport
import Foundation
import Testing

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
  private let lock = NSLock()
  private var current: Date
  init(_ start: Date) { current = start }
  var now: Date { lock.withLock { current } }
  func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

/// An issuer for handler tests: an mDL (mdoc), a PID (SD-JWT VC), and a deferred mdoc, signed
/// by a fresh test PKI, on http://127.0.0.1:8080 (loopback, development policy).
struct IssuerFixture {
  static let issuerID = "http://127.0.0.1:8080"
  let pki: TestPKI
  let clock: TestClock
  private(set) var store: any IssuerStateStore
  private(set) var service: CredentialIssuerService
  private(set) var handler: IssuerHTTPHandler

  init(
    store: any IssuerStateStore = InMemoryIssuerStateStore(),
    adjust: (inout IssuerConfiguration) -> Void = { _ in }
  ) throws {
    pki = try TestPKI()
    clock = TestClock(pki.clock)
    self.store = store
    var configuration = IssuerConfiguration(
      credentialIssuer: try IssuerIdentifier(Self.issuerID, policy: .development),
      display: [IssuerDisplay(name: "Utopia DMV", locale: "en")],
      credentials: [
        IssuableCredential(
          id: "mDL",
          content: .mdoc(
            doctype: "org.iso.18013.5.1.mDL",
            nameSpaces: [
              (
                "org.iso.18013.5.1",
                [("family_name", "Mustermann"), ("given_name", "Erika"), ("age_over_18", true)]
              )
            ]),
          display: [CredentialDisplay(name: "Mobile Driving Licence", locale: "en")]),
        IssuableCredential(
          id: "pid-sd-jwt",
          content: .sdJWT(
            vct: "urn:eudi:pid:1",
            claims: ["given_name": "Erika", "family_name": "Mustermann", "age_over_18": true]),
          display: [CredentialDisplay(name: "PID")]),
        IssuableCredential(
          id: "mDL-deferred",
          content: .mdoc(
            doctype: "org.iso.18013.5.1.mDL",
            nameSpaces: [("org.iso.18013.5.1", [("family_name", "Mustermann")])]),
          display: [CredentialDisplay(name: "Deferred mDL")]),
      ],
      batchSize: 3, signer: pki.dsKey, certificateChain: [pki.documentSigner], iacas: [pki.iaca],
      autoApprove: true, deferred: DeferredIssuanceSettings(configurationIDs: ["mDL-deferred"]))
    adjust(&configuration)
    let clock = self.clock
    service = CredentialIssuerService(
      configuration: configuration, store: store, clock: { clock.now })
    handler = IssuerHTTPHandler(service: service)
  }

  /// Another instance of the same issuer (configuration, keys, clock) over `store`: what a
  /// second server behind a load balancer is (issue 31).
  func instance(on store: any IssuerStateStore) -> IssuerFixture {
    var copy = self
    let clock = self.clock
    copy.store = store
    copy.service = CredentialIssuerService(
      configuration: service.configuration, store: store, clock: { clock.now })
    copy.handler = IssuerHTTPHandler(service: copy.service)
    return copy
  }

  /// A request to an endpoint of the fixture's issuer.
  func request(
    _ method: HTTPMethod, _ endpoint: IssuerEndpoints.Endpoint, headers: HTTPFields = [:],
    body: [UInt8] = []
  ) -> HTTPRequest {
    HTTPRequest(
      method: method, url: service.endpoints.url(endpoint), headers: headers, body: body)
  }
}

/// The JSON body of a response.
func jsonBody(_ response: HTTPResponse) throws -> JSONValue {
  try JSONValue(parsing: response.body)
}

/// The OAuth `error` of a response.
func oauthError(_ response: HTTPResponse) -> String? {
  (try? JSONValue(parsing: response.body))?["error"]?.string
}
