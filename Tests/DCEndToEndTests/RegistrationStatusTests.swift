import DCAPI
import DCCrypto
import DCHTTP
import DCHTTPServer
import DCJSON
import DCStatusList
import DCTrust
import DCWallet
import DCWalletFixtureTestSupport
import DCX509
import Foundation
import Testing

/// Serves one Status List Token at `/wrprc` on loopback and counts the requests.
final class RegistrationStatusServer: HTTPHandler, @unchecked Sendable {
  private let lock = NSLock()
  private var token: [UInt8] = []
  private var count = 0

  func serve(_ token: [UInt8]) { lock.withLock { self.token = token } }
  var requests: Int { lock.withLock { count } }

  func handle(_ request: HTTPRequest) async -> HTTPResponse {
    let body: [UInt8] = lock.withLock {
      count += 1
      return request.url.path == "/wrprc" ? token : []
    }
    guard !body.isEmpty else { return HTTPResponse(status: 404) }
    return HTTPResponse(
      status: 200, headers: ["Content-Type": "application/statuslist+jwt"], body: body)
  }
}

/// Issue 29: a registration certificate's own status (ETSI TS 119 475 v1.2.1 Table 10
/// `status.status_list`, an IETF Token Status List reference), fetched by the wallet whose
/// revocation setting fetches, from a status list the registration-certificate provider signs.
@Suite struct RegistrationStatusTests {
  /// Entry 0 valid, 1 invalid (revoked), 2 suspended.
  static func token(_ setup: RegistrationSetup, uri: String, signer: ECPrivateKey? = nil) throws
    -> [UInt8]
  {
    var list = StatusList(bits: .two, count: 3)
    try list.setStatus(.invalid, at: 1)
    try list.setStatus(.suspended, at: 2)
    return try StatusListToken(
      format: .jwt, subject: uri, issuedAt: setup.fixture.now.addingTimeInterval(-60),
      expiresAt: setup.fixture.now.addingTimeInterval(3_600), timeToLive: 300, statusList: list,
      certificateChain: [setup.provider.derBytes], signer: signer ?? setup.providerKey
    ).encoded
  }

  static func fetching(_ policy: RevocationPolicy = .failOpen) -> RevocationSettings {
    RevocationSettings(
      policy: policy,
      fetcher: CRLFetcher(
        httpClient: URLSessionHTTPClient(configuration: .init(policy: .development)),
        urlPolicy: .development))
  }

  @Test("a revoked or suspended registration certificate is refused; a valid one is verified")
  func revokedIsRefused() async throws {
    let setup = try await RegistrationSetup()
    defer { setup.fixture.dir.remove() }
    let server = RegistrationStatusServer()
    let http = DevelopmentHTTPServer(handler: server)
    let uri = "http://127.0.0.1:\(try http.start())/wrprc"
    defer { http.stop() }
    server.serve(try Self.token(setup, uri: uri))
    let wallet = try setup.fixture.wallet()
    var policy = setup.policy(refuse: true)
    policy.revocation = Self.fetching()
    func resolve(_ index: Int, _ policy: WalletPolicy) async throws -> PresentationRequest {
      try await wallet.resolve(
        try setup.openID4VP(
          RegistrationSetup.sdJWTQuery(["given_name"]),
          registration: try setup.registration(status: (index, uri))),
        origin: ConsentFixture.origin, policy: policy)
    }
    let valid = try await resolve(0, policy)
    #expect(valid.registration.certificate?.name == "Example Shop")
    #expect(server.requests == 1)
    for index in [1, 2] {
      let refused = await RegistrationOverAskingTests.refusal {
        _ = try await resolve(index, policy)
      }
      #expect(refused?.contains("the registration certificate is") == true, "\(refused ?? "")")
      #expect(
        refused?.contains(index == 1 ? "is revoked" : "is suspended") == true, "\(refused ?? "")")
    }
    // Not refusing over-asking: the consent screen shows it invalid, revoked.
    var showing = policy
    showing.refusesOverAsking = false
    guard case .invalid(let error) = try await resolve(1, showing).registration else {
      Issue.record("a revoked registration certificate was not invalid")
      return
    }
    #expect(error.code == .revoked)
    // The check is what refuses it: without a fetching revocation setting nothing is fetched.
    let before = server.requests
    var unchecked = policy
    unchecked.revocation = nil
    #expect(try await resolve(1, unchecked).registration.certificate != nil)
    #expect(server.requests == before)
  }

  @Test(
    "a status list not signed under a provider, or unreachable: unknown — accepted fail-open, refused fail-closed"
  )
  func unknownStatus() async throws {
    let setup = try await RegistrationSetup()
    defer { setup.fixture.dir.remove() }
    let server = RegistrationStatusServer()
    let http = DevelopmentHTTPServer(handler: server)
    let uri = "http://127.0.0.1:\(try http.start())/wrprc"
    defer { http.stop() }
    // Signed by a key that is not the provider's certificate key.
    server.serve(try Self.token(setup, uri: uri, signer: try ECPrivateKey(curve: .p256)))
    let wallet = try setup.fixture.wallet()
    for (index, uri) in [(1, uri), (1, "http://127.0.0.1:1/wrprc")] {
      var policy = setup.policy(refuse: true)
      policy.revocation = Self.fetching(.failOpen)
      let envelope = try setup.openID4VP(
        RegistrationSetup.sdJWTQuery(["given_name"]),
        registration: try setup.registration(status: (index, uri)))
      let open = try await wallet.resolve(
        envelope, origin: ConsentFixture.origin, policy: policy)
      #expect(open.registration.certificate != nil)
      policy.revocation = Self.fetching(.failClosed)
      let refused = await RegistrationOverAskingTests.refusal {
        _ = try await wallet.resolve(envelope, origin: ConsentFixture.origin, policy: policy)
      }
      #expect(refused?.contains("has an unknown status") == true, "\(refused ?? "")")
    }
  }
}
