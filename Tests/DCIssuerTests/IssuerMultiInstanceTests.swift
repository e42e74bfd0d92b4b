import DCCrypto
import DCHTTP
import DCIssuer
import DCJSON
import DCOpenID4VCI
import DCTestSupport
import Foundation
import Testing

/// Two issuer instances on one database (issue 31): every single-use value stays single use
/// across them, and a flow may hop from one to the other at every step.
@Suite("Issuer instances sharing a database")
struct IssuerMultiInstanceTests {
  /// Instances A and B of one issuer over `backend`.
  static func instances(
    _ backend: IssuerBackend, adjust: (inout IssuerConfiguration) -> Void = { _ in }
  ) throws -> (IssuerFixture, IssuerFixture) {
    let (storeA, storeB) = try backend.pair()
    let a = try IssuerFixture(store: storeA, adjust: adjust)
    return (a, a.instance(on: storeB))
  }

  static func flow(_ backend: IssuerBackend) async throws {
    let (a, b) = try Self.instances(backend)
    let wallet = try TestWallet(a)
    let offer = try a.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: true))
    wallet.fixture = b
    #expect(try await wallet.preAuthorized(offer).status == 200)
    wallet.fixture = a
    let (_, response) = try await wallet.requestCredentials("mDL", count: 2)
    #expect(response.status == 200)
    let notificationID = try #require(try IssuerCredentialTests.credentials(response).1)
    wallet.fixture = b
    let notified = try await wallet.protected(
      .notification,
      body: NotificationRequest(notificationID: notificationID, event: .credentialAccepted).json)
    #expect(notified.status == 204)
    #expect(try a.service.receivedNotifications().map(\.event) == [.credentialAccepted])
    #expect(try a.service.issuedCredentials().first?.lastEvent == "credential_accepted")
    // Two credentials issued once, seen from both instances.
    #expect(try b.service.issuedCredentials().map(\.count) == [2])
  }

  @Test("Offer from A, token from B, credential from A, notification to B (SQLite)")
  func flowOnSQLite() async throws { try await Self.flow(.sqlite) }

  @Test(
    "Offer from A, token from B, credential from A, notification to B (PostgreSQL)",
    .enabled(if: PostgreSQLTestServer.shouldRun), .timeLimit(.minutes(1)))
  func flowOnPostgreSQL() async throws { try await Self.flow(.postgresql) }

  /// 50 wallets, each with its own DPoP key, race for one pre-authorized code on two instances.
  static func race(_ backend: IssuerBackend) async throws {
    let (a, b) = try Self.instances(backend)
    let offer = try a.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
    let wallets = try (0..<50).map { try TestWallet($0.isMultiple(of: 2) ? a : b) }
    for wallet in wallets { await wallet.primeDPoPNonce() }
    let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
      for wallet in wallets {
        group.addTask(executorPreference: BlockingTaskExecutor.shared) {
          let response = try await wallet.preAuthorized(offer)
          return (response.status, oauthError(response))
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(statuses.filter { $0.0 == 200 }.count == 1)
    #expect(statuses.filter { $0.1 == "invalid_grant" }.count == 49)
  }

  @Test("50 wallets racing for one pre-authorized code: exactly one token (SQLite)")
  func raceOnSQLite() async throws { try await Self.race(.sqlite) }

  @Test(
    "50 wallets racing for one pre-authorized code: exactly one token (PostgreSQL)",
    .enabled(if: PostgreSQLTestServer.shouldRun), .timeLimit(.minutes(1)))
  func raceOnPostgreSQL() async throws { try await Self.race(.postgresql) }

  /// 20 wrong tx_codes at once on two instances, 20 allowed: every one counted (a lost update
  /// would leave the code alive), so the right code afterwards finds the pre-authorized code
  /// gone.
  static func guessing(_ backend: IssuerBackend) async throws {
    let (a, b) = try Self.instances(backend) { $0.transactionCode.maximumAttempts = 20 }
    let offer = try a.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: true))
    let wrong = offer.transactionCode == "000000" ? "111111" : "000000"
    let wallets = try (0..<20).map { try TestWallet($0.isMultiple(of: 2) ? a : b) }
    for wallet in wallets { await wallet.primeDPoPNonce() }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for wallet in wallets {
        group.addTask(executorPreference: BlockingTaskExecutor.shared) {
          let response = try await wallet.preAuthorized(offer, txCode: wrong)
          #expect(oauthError(response) == "invalid_grant")
        }
      }
      try await group.waitForAll()
    }
    let late = try TestWallet(b)
    await late.primeDPoPNonce()
    #expect(oauthError(try await late.preAuthorized(offer)) == "invalid_grant")
  }

  @Test(
    "Wrong tx_codes racing on two instances are all counted (PostgreSQL)",
    .enabled(if: PostgreSQLTestServer.shouldRun), .timeLimit(.minutes(1)))
  func guessingOnPostgreSQL() async throws { try await Self.guessing(.postgresql) }

  @Test("Wrong tx_codes racing on two handles of one SQLite file are all counted")
  func guessingOnSQLite() async throws { try await Self.guessing(.sqlite) }

  /// A c_nonce spent on A and a DPoP proof accepted by A are refused by B.
  static func replay(_ backend: IssuerBackend) async throws {
    let (a, b) = try Self.instances(backend)
    let wallet = try TestWallet(a)
    let offer = try a.service.createOffer(
      configurationIDs: ["mDL", "pid-sd-jwt"], grant: .preAuthorized(transactionCode: false))
    #expect(try await wallet.preAuthorized(offer).status == 200)
    let key = try ECPrivateKey(curve: .p256)
    let nonce = try await wallet.cNonce()
    let request = CredentialRequest(
      target: .credentialConfigurationID("mDL"),
      proofs: .jwt(try wallet.proofs([key], nonce: nonce)))
    #expect(try await wallet.credentialRequest(request).status == 200)
    wallet.fixture = b
    let again = try await wallet.credentialRequest(request)
    #expect(again.status == 400)
    #expect(oauthError(again) == "invalid_nonce")
    // One DPoP proof, accepted by A, replayed to B.
    wallet.fixture = a
    let fresh = try await wallet.cNonce()
    let body = CredentialRequest(
      target: .credentialConfigurationID("pid-sd-jwt"),
      proofs: .jwt(try wallet.proofs([key], nonce: fresh)))
    let token = try #require(wallet.accessToken)
    let proof = try wallet.dpop(.credential, accessToken: token)
    let headers: HTTPFields = [
      "Content-Type": "application/json", "Authorization": "DPoP \(token)", "DPoP": proof,
    ]
    let first = await a.handler.handle(
      a.request(.post, .credential, headers: headers, body: body.json.serializedBytes()))
    #expect(first.status == 200)
    let replayed = await b.handler.handle(
      b.request(.post, .credential, headers: headers, body: body.json.serializedBytes()))
    #expect(replayed.status == 401)
    #expect(replayed.headers["WWW-Authenticate"]?.contains("invalid_dpop_proof") == true)
  }

  @Test("A nonce or DPoP proof replayed on the other instance is refused (SQLite)")
  func replayOnSQLite() async throws { try await Self.replay(.sqlite) }

  @Test(
    "A nonce or DPoP proof replayed on the other instance is refused (PostgreSQL)",
    .enabled(if: PostgreSQLTestServer.shouldRun), .timeLimit(.minutes(1)))
  func replayOnPostgreSQL() async throws { try await Self.replay(.postgresql) }
}
