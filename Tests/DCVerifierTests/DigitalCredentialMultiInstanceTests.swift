import DCAPI
import DCJSON
import DCOpenID4VP
import DCOpenID4VPTestSupport
import DCTestSupport
import DCVerifier
import DCWalletTestSupport
import Foundation
import Testing

/// Issue 31: the DC API verifier's transactions (issue 30's web page) in the shared store, so
/// two instances on one database serve one flow: made on A, verified on B, once.
@Suite("DigitalCredentialVerifier instances sharing a database")
struct DigitalCredentialMultiInstanceTests {
  let fixture: Fixture

  init() throws { fixture = try Fixture() }

  /// Instances A and B of one DC API verifier, each on its own handle of `backend`'s database.
  func instances(_ backend: VerifierBackend, protocols: [DigitalCredentialProtocol]) throws -> (
    DigitalCredentialVerifier, DigitalCredentialVerifier
  ) {
    let (storeA, storeB) = try backend.pair()
    let now = fixture.now
    let configuration = DigitalCredentialVerifierConfiguration(
      origin: try WebOrigin(Fixture.origin), protocols: protocols, signer: fixture.signer,
      sdJWTIssuerAnchors: [fixture.pidRoot], mdocIssuerAnchors: [fixture.pki.iaca])
    return (
      DigitalCredentialVerifier(configuration: configuration, store: storeA, now: { now }),
      DigitalCredentialVerifier(configuration: configuration, store: storeB, now: { now })
    )
  }

  /// The wallet's `openid4vp-v1-unsigned` answer to `transaction`.
  func answer(_ transaction: DigitalCredentialTransaction) throws -> JSONValue {
    let requests = transaction.credentialRequestOptions["digital"]?["requests"]?.array ?? []
    let protocolID = OpenID4VPProtocol.unsigned
    let sent = try #require(requests.first { $0["protocol"]?.string == protocolID.rawValue })
    let request = try fixture.parse(
      protocol: protocolID, data: try #require(sent["data"]), origin: Fixture.origin)
    let response = try fixture.respond(to: request, origin: Fixture.origin)
    return .object([("protocol", .string(protocolID.rawValue)), ("data", response.data)])
  }

  static func code(_ body: () async throws -> Void) async -> VerifierErrorCode? {
    do {
      try await body()
      return nil
    } catch let error as VerifierError {
      return error.code
    } catch {
      Issue.record("unexpected \(error)")
      return nil
    }
  }

  /// Made on A, verified on B; the same answer again on A (or B) is refused.
  func crossInstance(_ backend: VerifierBackend) async throws {
    let (a, b) = try instances(backend, protocols: [.openID4VPSigned, .openID4VPUnsigned])
    let made = try await a.makeTransaction(dcqlQuery: Fixture.query)
    let credential = try answer(made)
    guard
      case .openID4VP(_, let verified) = try await b.verify(
        transactionID: made.id, credential: credential)
    else {
      Issue.record("not an OpenID4VP result")
      return
    }
    #expect(verified.credentials["mdl"] != nil)
    #expect(
      await Self.code { _ = try await a.verify(transactionID: made.id, credential: credential) }
        == .alreadyAnswered)
    #expect(
      await Self.code { _ = try await b.verify(transactionID: "nope", credential: credential) }
        == .unknownTransaction)
  }

  @Test("Made on A, verified on B, refused a second time (SQLite)")
  func crossInstanceOnSQLite() async throws { try await crossInstance(.sqlite) }

  @Test(
    "Made on A, verified on B, refused a second time (PostgreSQL)",
    .enabled(if: PostgreSQLTestServer.shouldRun), .timeLimit(.minutes(1)))
  func crossInstanceOnPostgreSQL() async throws { try await crossInstance(.postgresql) }

  /// One answer posted to A and B at once, eight times over: exactly one verifies.
  func race(_ backend: VerifierBackend) async throws {
    let (a, b) = try instances(backend, protocols: [.openID4VPUnsigned])
    let made = try await a.makeTransaction(dcqlQuery: Fixture.query)
    let credential = try answer(made)
    let outcomes = await withTaskGroup(of: VerifierErrorCode?.self) { group in
      for index in 0..<8 {
        let verifier = index.isMultiple(of: 2) ? a : b
        group.addTask {
          await Self.code {
            _ = try await verifier.verify(transactionID: made.id, credential: credential)
          }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(outcomes.filter { $0 == nil }.count == 1, "\(outcomes)")
    #expect(outcomes.filter { $0 == .alreadyAnswered }.count == 7, "\(outcomes)")
  }

  @Test("Answers racing on two instances: one verifies (SQLite)")
  func raceOnSQLite() async throws { try await race(.sqlite) }

  @Test(
    "Answers racing on two instances: one verifies (PostgreSQL)",
    .enabled(if: PostgreSQLTestServer.shouldRun), .timeLimit(.minutes(1)))
  func raceOnPostgreSQL() async throws { try await race(.postgresql) }

  /// Every request's state reads back from the row as it was made: the Annex C request with its
  /// HPKE key, each OpenID4VP state with its encryption key, the expiry.
  @Test("A transaction's requests read back from the database as made (SQLite)")
  func storedStateReadsBack() async throws {
    let now = fixture.now
    let inMemory = DigitalCredentialVerifier(
      configuration: DigitalCredentialVerifierConfiguration(
        origin: try WebOrigin(Fixture.origin), protocols: [.orgIsoMdoc, .openID4VPUnsigned]),
      now: { now })
    let memory = inMemory.store
    #expect(memory is DigitalCredentialTransactionStore)
    let (storeA, storeB) = try VerifierBackend.sqlite.pair()
    let shared = try #require(storeA as? any DigitalCredentialTransactionStoring)
    let made = try await inMemory.makeTransaction(dcqlQuery: Fixture.query)
    let entry = try #require(try await memory.dcAPITransaction(id: made.id, now: fixture.now))
    #expect(entry.annexC != nil)
    #expect(entry.openID4VP[.unsigned]?.encryptionKey != nil)
    #expect(try await shared.insertDCAPITransaction(entry, now: fixture.now))
    let other = try #require(storeB as? any DigitalCredentialTransactionStoring)
    let read = try #require(try await other.dcAPITransaction(id: made.id, now: fixture.now))
    #expect(read.annexC == entry.annexC)
    #expect(read.openID4VP == entry.openID4VP)
    #expect(read.expiresAt == entry.expiresAt)
    #expect(!read.answered)
    // Taken once; then seen answered; an expired one is gone.
    #expect(try await other.takeDCAPITransaction(id: made.id, now: fixture.now)?.answered == false)
    #expect(try await shared.takeDCAPITransaction(id: made.id, now: fixture.now)?.answered == true)
    #expect(
      try await shared.dcAPITransaction(id: made.id, now: entry.expiresAt.addingTimeInterval(1))
        == nil)
  }

  /// Without a shared store (the default), a transaction lives in the process that made it.
  @Test("Without a store the transactions are this process's")
  func memoryByDefault() async throws {
    let configuration = DigitalCredentialVerifierConfiguration(
      origin: try WebOrigin(Fixture.origin), protocols: [.openID4VPUnsigned])
    let verifier = DigitalCredentialVerifier(
      configuration: configuration, store: InMemoryPresentationTransactionStore())
    #expect(verifier.store is DigitalCredentialTransactionStore)
  }
}
