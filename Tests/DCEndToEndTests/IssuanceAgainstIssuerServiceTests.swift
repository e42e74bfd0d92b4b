import DCCBOR
import DCCOSE
import DCCrypto
import DCHTTP
import DCIssuer
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VCI
import DCSDJWT
import DCWallet
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// The wallet's issuance client against this package's own issuer (`CredentialIssuerService`),
/// in process: both ends of OpenID4VCI 1.0 as written, before the loopback HTTP tests.
@Suite("Issuance client against CredentialIssuerService")
struct IssuanceAgainstIssuerServiceTests {
  static let issuerID = "http://127.0.0.1:8080"
  static let redirectURI = "https://wallet.example/cb"

  final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ start: Date) { current = start }
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
  }

  struct Setup {
    let pki: TestPKI
    let clock: Clock
    let service: CredentialIssuerService
    let client: IssuanceClient
  }

  static func setup(
    provider: (any WalletProvider)? = nil, adjust: (inout IssuerConfiguration) -> Void = { _ in }
  ) throws -> Setup {
    let pki = try TestPKI()
    let clock = Clock(pki.clock)
    var configuration = IssuerConfiguration(
      credentialIssuer: try IssuerIdentifier(issuerID, policy: .development),
      display: [IssuerDisplay(name: "Utopia DMV")],
      credentials: [
        IssuableCredential(
          id: "mDL",
          content: .mdoc(
            doctype: "org.iso.18013.5.1.mDL",
            nameSpaces: [
              ("org.iso.18013.5.1", [("family_name", "Mustermann"), ("age_over_18", true)])
            ]),
          display: [CredentialDisplay(name: "Mobile Driving Licence")]),
        IssuableCredential(
          id: "pid",
          content: .sdJWT(vct: "urn:eudi:pid:1", claims: ["given_name": "Erika"]),
          display: [CredentialDisplay(name: "PID")]),
        IssuableCredential(
          id: "mDL-later",
          content: .mdoc(
            doctype: "org.iso.18013.5.1.mDL",
            nameSpaces: [("org.iso.18013.5.1", [("family_name", "Mustermann")])])),
      ],
      batchSize: 5, signer: pki.dsKey, certificateChain: [pki.documentSigner], iacas: [pki.iaca],
      autoApprove: true, deferred: DeferredIssuanceSettings(configurationIDs: ["mDL-later"]))
    adjust(&configuration)
    let service = CredentialIssuerService(
      configuration: configuration, store: InMemoryIssuerStateStore(), clock: { clock.now })
    let client = IssuanceClient(
      http: InProcessHTTPClient(handler: IssuerHTTPHandler(service: service)),
      configuration: IssuanceClient.Configuration(
        urlPolicy: .development, clientID: "dcwallet", redirectURI: redirectURI,
        walletProvider: provider, clock: { clock.now }))
    return Setup(pki: pki, clock: clock, service: service, client: client)
  }

  /// The MSO's device key of an issued mdoc.
  static func deviceKey(_ outcome: IssuedCredentialOutcome) throws -> ECPublicKey {
    let issuerSigned = try IssuerSigned(
      cbor: try CBOR.decode(try outcome.credential.mdocIssuerSigned()))
    return try issuerSigned.mso.deviceKey.publicKey()
  }

  @Test("Pre-authorized with tx_code, a batch of 3 mdocs bound to the wallet's keys; the IACAs")
  func preAuthorizedBatch() async throws {
    let setup = try Self.setup()
    let created = try setup.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: true), byReference: true)
    let offer = try await setup.client.resolveOffer(created.uri)
    let result = try await setup.client.issuePreAuthorized(
      offer: offer, txCode: created.transactionCode,
      options: IssuanceClient.Options(batchSize: 3))
    #expect(result.failed.isEmpty, "\(result.failed.map(\.error))")
    #expect(result.issued.count == 3)
    for outcome in result.issued {
      #expect(try Self.deviceKey(outcome) == outcome.deviceKey?.publicKey)
      #expect(outcome.display.first?.name == "Mobile Driving Licence")
      #expect(outcome.notification != nil)
    }
    let context = try await setup.client.issuerMetadata(offer.credentialIssuer)
    #expect(try await setup.client.issuerIACAs(context) == [setup.pki.iaca.derBytes])
    // A wrong transaction code is refused by the issuer.
    let other = try setup.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: true))
    let tokenError = await #expect(throws: IssuanceError.self) {
      try await setup.client.issuePreAuthorized(
        offer: other.offer, txCode: other.transactionCode == "000000" ? "111111" : "000000")
    }
    #expect(tokenError?.code == .token)
  }

  @Test("Authorization code: PAR, auto-approval, the redirect, the token, an SD-JWT VC")
  func authorizationCode() async throws {
    let setup = try Self.setup()
    let created = try setup.service.createOffer(
      configurationIDs: ["pid"], grant: .authorizationCode)
    let pending = try await setup.client.beginAuthorization(offer: created.offer)
    let answer = await IssuerHTTPHandler(service: setup.service).handle(
      HTTPRequest(method: .get, url: pending.authorizationURL))
    #expect(answer.status == 302)
    let redirect = try #require(answer.headers["Location"].flatMap(URL.init(string:)))
    let result = try await setup.client.completeAuthorization(pending, redirect: redirect)
    #expect(result.failed.isEmpty, "\(result.failed.map(\.error))")
    #expect(result.refreshToken != nil)
    let outcome = try #require(result.issued.first)
    let sdJWT = try SDJWT(serialized: try #require(outcome.credential.text))
    #expect(
      sdJWT.issuerPayload["cnf"]?["jwk"]
        == JWK(publicKey: try #require(outcome.deviceKey).publicKey).json)
  }

  @Test("Deferred: the transaction_id, pending, released, then collected; a notification")
  func deferredAndNotification() async throws {
    let setup = try Self.setup()
    let created = try setup.service.createOffer(
      configurationIDs: ["mDL-later"], grant: .preAuthorized(transactionCode: false))
    let result = try await setup.client.issuePreAuthorized(offer: created.offer, txCode: nil)
    let pending = try #require(result.deferred.first)
    guard case .pending(let again) = await setup.client.pollDeferred(pending) else {
      Issue.record("expected the issuance to be pending")
      return
    }
    #expect(try setup.service.releaseDeferred(transactionID: pending.transactionID))
    setup.clock.advance(Double(again.interval))
    guard case .issued(let outcomes) = await setup.client.pollDeferred(again) else {
      Issue.record("expected the credentials")
      return
    }
    #expect(outcomes.count == 1)
    let target = try #require(outcomes.first?.notification)
    try await setup.client.notify(target, event: .credentialAccepted)
    #expect(try setup.service.receivedNotifications().map(\.event) == [.credentialAccepted])
  }

  @Test("Client and key attestation demanded: the development wallet provider satisfies both")
  func attestations() async throws {
    let clock = Clock(TestPKI.now)
    let provider = try DevelopmentWalletProvider(clock: { clock.now })
    let setup = try Self.setup(provider: provider) {
      $0.attestation = AttestationPolicy(
        requireClientAttestation: true, requireKeyAttestation: true,
        trustedWalletProviderKeys: [provider.attesterPublicKey])
      $0.responseEncryption = ResponseEncryptionPolicy(required: true)
    }
    let created = try setup.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
    let result = try await setup.client.issuePreAuthorized(
      offer: created.offer, txCode: nil, options: IssuanceClient.Options(batchSize: 2))
    #expect(result.failed.isEmpty, "\(result.failed.map(\.error))")
    #expect(result.issued.count == 2)
  }
}
