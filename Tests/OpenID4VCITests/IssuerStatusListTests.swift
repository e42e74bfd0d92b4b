import CryptoPrimitives
import Foundation
import HTTP
import JOSE
import JSON
import OpenID4VCI
import SDJWT
import Testing

/// The issuer end of Token Status Lists (issue 15): references in issued credentials, the
/// published tokens, `Accept` negotiation.
@Suite("Issuer status lists")
struct IssuerStatusListTests {
  static func fixture(_ settings: StatusListSettings? = StatusListSettings(size: 16)) throws
    -> IssuerFixture
  {
    try IssuerFixture { $0.statusLists = settings }
  }

  @Test("Each SD-JWT VC carries status.status_list {idx, uri}, always disclosed, its own index")
  func sdJWTReference() async throws {
    let fixture = try Self.fixture()
    let wallet = try await IssuerCredentialTests.authorizedWallet(fixture)
    let (_, response) = try await wallet.requestCredentials("pid-sd-jwt", count: 3)
    let (credentials, notificationID) = try IssuerCredentialTests.credentials(response)
    #expect(credentials.count == 3)
    var indices = Set<Int64>()
    for credential in credentials {
      let sdJWT = try SDJWT(serialized: try #require(credential.text))
      let reference = try #require(sdJWT.issuerPayload["status"]?["status_list"])
      #expect(reference["uri"]?.string == "\(IssuerFixture.issuerID)/status-lists/1")
      indices.insert(Int64(try #require(reference["idx"]?.int)))
      // The three configured claims are the only disclosures: status is in the clear.
      #expect(sdJWT.disclosures.count == 3)
    }
    #expect(indices.count == 3)
    // The issuer's ids for the three, found again under their notification_id and in the store.
    let record = try #require(
      try fixture.service.issuedCredentials().first { $0.notificationID == notificationID })
    #expect(record.credentialIDs.count == 3)
    let stored = try fixture.store.issuedCredentialStatuses()
    #expect(stored.map(\.credentialID) == record.credentialIDs)
    #expect(Set(stored.map { Int64($0.index) }) == indices)
    #expect(stored.allSatisfy { $0.configurationID == "pid-sd-jwt" && $0.listID == 1 })
  }

  @Test("Without status lists configured, credentials carry no status and no list is served")
  func noStatusLists() async throws {
    let fixture = try Self.fixture(nil)
    let wallet = try await IssuerCredentialTests.authorizedWallet(fixture)
    let (_, response) = try await wallet.requestCredentials("pid-sd-jwt")
    let (credentials, _) = try IssuerCredentialTests.credentials(response)
    let sdJWT = try SDJWT(serialized: try #require(credentials.first?.text))
    #expect(sdJWT.issuerPayload["status"] == nil)
    #expect(try fixture.store.issuedCredentialStatuses().isEmpty)
    let served = await fixture.handler.handle(
      HTTPRequest(method: .get, url: fixture.service.endpoints.statusListURL(id: 1)))
    #expect(served.status == 404)
  }

  @Test(
    "Accept negotiation",
    arguments: [
      (nil, StatusListTokenForm.jwt),
      ("application/statuslist+jwt", .jwt),
      ("application/statuslist+cwt", .cwt),
      ("Application/StatusList+CWT", .cwt),
      ("*/*", .jwt),
      ("application/*", .jwt),
      ("application/statuslist+cwt, application/statuslist+jwt;q=0.5", .cwt),
      ("application/statuslist+jwt;q=0.2, application/statuslist+cwt;q=0.9", .cwt),
      ("application/statuslist+jwt;q=0, */*", .cwt),
      ("text/html, */*;q=0.1", .jwt),
      ("application/json", nil),
      ("application/statuslist+jwt;q=0, application/statuslist+cwt;q=0", nil),
      ("*/*;q=0", nil),
      ("application/jwt", nil),
    ] as [(String?, StatusListTokenForm?)])
  func negotiation(accept: String?, form: StatusListTokenForm?) {
    #expect(StatusListTokenForm.negotiate(accept: accept) == form)
  }

  @Test("404 for an unknown list or id; 406 for an Accept that takes neither form; 405 for POST")
  func refusals() async throws {
    let fixture = try Self.fixture()
    _ = try fixture.store.assignStatusIndex(
      credentialID: "c", configurationID: "pid-sd-jwt", settings: StatusListSettings(size: 16),
      now: fixture.clock.now, random: SecureRandom())
    let base = fixture.service.endpoints.url(.statusList).absoluteString
    for path in ["2", "01", "x", "-1", "1/2", ""] {
      let response = await fixture.handler.handle(
        HTTPRequest(method: .get, url: try #require(URL(string: base + path))))
      #expect(response.status == 404, "\(path)")
    }
    let url = fixture.service.endpoints.statusListURL(id: 1)
    let refused = await fixture.handler.handle(
      HTTPRequest(method: .get, url: url, headers: ["Accept": "application/json"]))
    #expect(refused.status == 406)
    #expect(refused.headers["Vary"] == "Accept")
    let post = await fixture.handler.handle(HTTPRequest(method: .post, url: url))
    #expect(post.status == 405)
  }
}
