import DCCBOR
import DCCrypto
import DCHTTP
import DCIssuer
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VCI
import DCSDJWT
import DCStatusList
import DCWalletTestSupport
import DCX509
import Foundation
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

/// The published tokens, read back with the StatusList module.
@Suite("Issuer status list tokens")
struct IssuerStatusListTokenTests {
  /// GET the list at `uri` with `accept`, read back as the form the Content-Type names.
  static func fetch(_ fixture: IssuerFixture, _ uri: String, accept: String?) async throws
    -> StatusListToken
  {
    let response = await fixture.handler.handle(
      HTTPRequest(
        method: .get, url: try #require(URL(string: uri)),
        headers: accept.map { ["Accept": $0] } ?? [:]))
    #expect(response.status == 200)
    let token: StatusListToken
    switch response.headers["Content-Type"] {
    case "application/statuslist+jwt":
      token = try StatusListToken(jwt: String(decoding: response.body, as: UTF8.self))
    case "application/statuslist+cwt": token = try StatusListToken(cwt: response.body)
    default:
      throw OpenID4VCIError(
        .invalidMetadata, "Content-Type \(response.headers["Content-Type"] ?? "none")")
    }
    // Signed by the document signer, its chain in x5c / x5chain; sub is the list's URL.
    try token.verifySignature(publicKey: fixture.pki.dsKey.publicKey)
    #expect(token.certificateChain == [fixture.pki.documentSigner.derBytes])
    #expect(token.subject == uri)
    #expect(token.timeToLive == 300)
    let now = fixture.clock.now.timeIntervalSince1970.rounded(.down)
    #expect(token.issuedAt.timeIntervalSince1970 == now)
    #expect(token.expiresAt?.timeIntervalSince1970 == now + 86_400)
    return token
  }

  @Test("mdoc MSO status and SD-JWT VC status point at the list; both forms show each change")
  func publishedStatuses() async throws {
    let fixture = try IssuerStatusListTests.fixture()
    let wallet = try await IssuerCredentialTests.authorizedWallet(fixture)
    let (_, mdocResponse) = try await wallet.requestCredentials("mDL")
    let (mdocs, _) = try IssuerCredentialTests.credentials(mdocResponse)
    let issuerSigned = try IssuerSigned(
      cbor: try CBOR.decode(try #require(mdocs.first).mdocIssuerSigned()))
    guard
      case .statusList(let mdocReference) = try ReferencedStatus.mdoc(
        status: try #require(issuerSigned.mso.status))
    else { throw OpenID4VCIError(.invalidMetadata, "no status_list in the MSO") }
    let (_, sdJWTResponse) = try await wallet.requestCredentials("pid-sd-jwt")
    let (sdJWTs, _) = try IssuerCredentialTests.credentials(sdJWTResponse)
    let sdJWT = try SDJWT(serialized: try #require(sdJWTs.first?.text))
    guard
      case .statusList(let sdJWTReference) = try ReferencedStatus.sdJWT(
        payload: sdJWT.issuerPayload)
    else { throw OpenID4VCIError(.invalidMetadata, "no status_list in the SD-JWT VC") }
    let uri = "\(IssuerFixture.issuerID)/status-lists/1"
    #expect(mdocReference.uri == uri)
    #expect(sdJWTReference.uri == uri)
    #expect(mdocReference.index != sdJWTReference.index)
    let records = try fixture.store.issuedCredentialStatuses()
    let mdocID = try #require(records.first { $0.configurationID == "mDL" }).credentialID
    let sdJWTID = try #require(records.first { $0.configurationID == "pid-sd-jwt" }).credentialID

    func statuses() async throws -> [Status] {
      var seen: [[Status]] = []
      for accept in ["application/statuslist+jwt", "application/statuslist+cwt", nil] {
        let token = try await Self.fetch(fixture, uri, accept: accept)
        #expect(token.format == (accept == "application/statuslist+cwt" ? .cwt : .jwt))
        #expect(token.statusList.bits == .two)
        #expect(token.statusList.count == 16)
        seen.append([
          try token.statusList.status(at: mdocReference.index),
          try token.statusList.status(at: sdJWTReference.index),
        ])
      }
      #expect(Set(seen).count == 1, "the forms disagree: \(seen)")
      return seen[0]
    }
    #expect(try await statuses() == [.valid, .valid])
    _ = try fixture.store.changeStatus(credentialID: mdocID, .suspend)
    _ = try fixture.store.changeStatus(credentialID: sdJWTID, .revoke)
    #expect(try await statuses() == [.suspended, .invalid])
    fixture.clock.advance(60)
    _ = try fixture.store.changeStatus(credentialID: mdocID, .reinstate)
    #expect(try await statuses() == [.valid, .invalid])
  }
}
