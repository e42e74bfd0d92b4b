import DCAPI
import DCHTTP
import DCIssuer
import DCJSON
import DCOpenID4VCI
import DCTestSupport
import DCWallet
import Foundation
import Testing

/// Issuance over the W3C Digital Credentials API, both ends in process: the issuer makes the
/// `navigator.credentials.create` argument for an offer, the wallet reads it with the page's
/// origin, runs the grant it carries, stores the credential and answers `offer_accepted`.
@Suite("DC API issuance: issuer to wallet")
struct DCAPIIssuanceTests {
  typealias Setup = IssuanceAgainstIssuerServiceTests.Setup

  static func createRequest(_ setup: Setup, _ configuration: String, _ grant: OfferGrantKind)
    throws -> [UInt8]
  {
    let created = try setup.service.createOffer(configurationIDs: [configuration], grant: grant)
    return Array(setup.service.digitalCredentialCreationOptions(for: created).serialized().utf8)
  }

  @Test("the creation options: one openid4vci-v1 request carrying the offer and the metadata")
  func creationOptions() throws {
    let setup = try IssuanceAgainstIssuerServiceTests.setup()
    let options = try JSONValue(parsing: try Self.createRequest(setup, "pid", .authorizationCode))
    let requests = try #require(options["digital"]?["requests"]?.array)
    #expect(requests.count == 1)
    #expect(requests.first?["protocol"]?.string == "openid4vci-v1")
    let data = try #require(requests.first?["data"])
    #expect(data["credential_issuer"]?.string == IssuanceAgainstIssuerServiceTests.issuerID)
    #expect(
      data["credential_issuer_metadata"]?["credential_issuer"]?.string
        == IssuanceAgainstIssuerServiceTests.issuerID)
    #expect(data["authorization_server_metadata"]?["token_endpoint"]?.string != nil)
    #expect(data["grants"]?["authorization_code"]?["issuer_state"]?.string != nil)
  }

  @Test("pre-authorized: the wallet stores the credential and answers offer_accepted")
  func preAuthorized() async throws {
    let setup = try IssuanceAgainstIssuerServiceTests.setup()
    let (issuance, _) = try await IssuanceGapsTests.wallet(setup)
    let request = try DigitalCredentialOffer(
      json: try Self.createRequest(setup, "mDL", .preAuthorized(transactionCode: false)),
      origin: IssuanceAgainstIssuerServiceTests.issuerID, urlPolicy: .development)
    let result = try await issuance.issue(
      request, authorize: { _ in throw CancellationError() })
    #expect(result.failed.isEmpty, "\(result.failed.map(\.reason))")
    #expect(result.stored.map(\.type) == ["org.iso.18013.5.1.mDL"])
    #expect(try await issuance.wallet.credentials().count == 1)
    #expect(request.response.json["data"]?["status"]?.string == "offer_accepted")
  }

  @Test("authorization code: authorize opens the URL and returns the redirect")
  func authorizationCode() async throws {
    let setup = try IssuanceAgainstIssuerServiceTests.setup()
    let (issuance, _) = try await IssuanceGapsTests.wallet(setup)
    let request = try DigitalCredentialOffer(
      json: try Self.createRequest(setup, "mDL", .authorizationCode),
      origin: IssuanceAgainstIssuerServiceTests.issuerID, urlPolicy: .development)
    let handler = IssuerHTTPHandler(service: setup.service)
    let result = try await issuance.issue(
      request,
      authorize: { url in
        let answer = await handler.handle(HTTPRequest(method: .get, url: url))
        return try #require(answer.headers["Location"].flatMap(URL.init(string:)))
      })
    #expect(result.stored.map(\.format) == [.msoMdoc], "\(result.failed.map(\.reason))")
  }

  @Test("an authorization that fails is an authorization error; nothing is stored")
  func authorizationFails() async throws {
    let setup = try IssuanceAgainstIssuerServiceTests.setup()
    let (issuance, _) = try await IssuanceGapsTests.wallet(setup)
    let request = try DigitalCredentialOffer(
      json: try Self.createRequest(setup, "pid", .authorizationCode),
      origin: IssuanceAgainstIssuerServiceTests.issuerID, urlPolicy: .development)
    let error = await #expect(throws: IssuanceError.self) {
      try await issuance.issue(request, authorize: { _ in throw CancellationError() })
    }
    #expect(error?.code == .authorization)
    #expect(try await issuance.wallet.credentials().isEmpty)
  }

  @Test("an offer made for another origin is refused before the issuer is contacted")
  func otherOrigin() async throws {
    let setup = try IssuanceAgainstIssuerServiceTests.setup()
    let created = try setup.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
    let bytes = Array(
      setup.service.digitalCredentialCreationOptions(for: created).serialized().utf8)
    let error = #expect(throws: IssuanceError.self) {
      try DigitalCredentialOffer(
        json: bytes, origin: "https://evil.example", urlPolicy: .development)
    }
    #expect(error?.code == .originMismatch)
    // The code is still unredeemed: the rightful page can hand it over.
    let (issuance, _) = try await IssuanceGapsTests.wallet(setup)
    let request = try DigitalCredentialOffer(
      json: bytes, origin: IssuanceAgainstIssuerServiceTests.issuerID, urlPolicy: .development)
    let result = try await issuance.issue(request, authorize: { _ in throw CancellationError() })
    #expect(result.stored.count == 1)
  }

  @Test("an issuance that stores nothing does not answer offer_accepted")
  func nothingStored() async throws {
    let setup = try IssuanceAgainstIssuerServiceTests.setup()
    // A wallet that does not trust the issuer: the credential is refused before storage.
    let home = TestScratch.path("dcwallet-dcapi")
    try WalletHome(directory: home).create()
    let clock = setup.clock
    let issuance = WalletIssuance(
      wallet: try Wallet(home: WalletHome(directory: home), clock: { clock.now }),
      client: setup.client)
    let request = try DigitalCredentialOffer(
      json: try Self.createRequest(setup, "mDL", .preAuthorized(transactionCode: false)),
      origin: IssuanceAgainstIssuerServiceTests.issuerID, urlPolicy: .development)
    let error = await #expect(throws: IssuanceError.self) {
      try await issuance.issue(request, authorize: { _ in throw CancellationError() })
    }
    #expect(error?.code == .credential)
  }
}
