import DCHTTP
import DCJOSE
import DCJSON
import DCOpenID4VP
import DCStore
import DCTestSupport
import DCVerifier
import Foundation
import Testing

/// Where a test's transaction stores live: two handles on one SQLite file, or two instances'
/// connection pools on one PostgreSQL database (issue 31).
enum VerifierBackend: String, CaseIterable, Sendable {
  case sqlite, postgresql

  func pair(capacity: Int = 10_000) throws -> (
    any PresentationTransactionStore, any PresentationTransactionStore
  ) {
    switch self {
    case .sqlite:
      let directory = TestScratch.url("verifier-store")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let path = directory.appendingPathComponent("transactions.sqlite").path
      return (
        try SQLitePresentationTransactionStore(path: path, capacity: capacity),
        try SQLitePresentationTransactionStore(path: path, capacity: capacity)
      )
    case .postgresql:
      let url = try PostgreSQLTestServer.freshDatabase()
      return (
        try PostgreSQLPresentationTransactionStore(url: url, capacity: capacity),
        try PostgreSQLPresentationTransactionStore(url: url, capacity: capacity)
      )
    }
  }
}

/// The contract every shared transaction store keeps, and two verifier instances on one
/// database, against SQLite and a real PostgreSQL server.
enum VerifierStoreContract: String, CaseIterable, Sendable {
  case crossInstanceFlow, oneResponse, oneFetch, capacityAndPurge, storedResults

  func run(_ backend: VerifierBackend) async throws {
    switch self {
    case .crossInstanceFlow: try await Self.crossInstanceFlow(backend, mode: .directPostJWT)
    case .oneResponse: try await Self.oneResponse(backend)
    case .oneFetch: try await Self.oneFetch(backend)
    case .capacityAndPurge: try await Self.capacityAndPurge(backend)
    case .storedResults: try await Self.storedResults(backend)
    }
  }

  static func instances(_ backend: VerifierBackend) throws -> (RedirectFixture, RedirectFixture) {
    let (storeA, storeB) = try backend.pair()
    let a = try RedirectFixture(store: storeA)
    return (a, a.instance(on: storeB))
  }

  /// Started on A, `request_uri` fetched from B, response posted to A, result read on B.
  static func crossInstanceFlow(_ backend: VerifierBackend, mode: DirectPostMode) async throws {
    let (a, b) = try instances(backend)
    let created = try await a.create(RedirectFixture.pidQuery, .init(responseMode: mode))
    let parameters = try await b.requestParameters(created.authorizationRequestURI)
    let body = try a.responseBody(
      vpToken: try a.pidToken(parameters), state: parameters["state"]?.string ?? "",
      parameters: parameters, encrypt: mode == .directPostJWT)
    #expect(try await a.post(body, to: parameters).status == 200)
    guard
      case .verified(let verified) = try await b.verifier.result(
        transactionID: created.transactionID)
    else {
      Issue.record("B does not read A's verified result")
      return
    }
    let pid = try #require(verified.credentials["pid"]?.first)
    #expect(pid.claim(["given_name"]) == "Erika")
    #expect(
      pid.report.checks.contains(.keyBindingToClient(clientID: "x509_san_dns:verifier.example")))
    #expect(verified.report.checks.contains(.responseDecrypted))
    // What B renders is what A renders.
    guard
      case .verified(let local) = try await a.verifier.result(
        transactionID: created.transactionID)
    else { return }
    #expect(
      PresentationVerifierHTTPHandler.defaultRender(verified)
        == PresentationVerifierHTTPHandler.defaultRender(local))
  }

  /// One response posted twice (to A, then B), and ten posted at once to both: one accepted.
  static func oneResponse(_ backend: VerifierBackend) async throws {
    let (a, b) = try instances(backend)
    let created = try await a.create()
    let parameters = try await b.requestParameters(created.authorizationRequestURI)
    let body = try a.responseBody(
      vpToken: try a.pidToken(parameters), state: parameters["state"]?.string ?? "",
      parameters: parameters, encrypt: true)
    #expect(try await a.post(body, to: parameters).status == 200)
    let second = try await b.post(body, to: parameters)
    #expect(PresentationEndpointFailureBody(response: second).failure == "already_answered")

    let raced = try await a.create()
    let racedParameters = try await a.requestParameters(raced.authorizationRequestURI)
    let racedBody = try a.responseBody(
      vpToken: try a.pidToken(racedParameters), state: racedParameters["state"]?.string ?? "",
      parameters: racedParameters, encrypt: true)
    let accepted = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<10 {
        let instance = index.isMultiple(of: 2) ? a : b
        group.addTask(executorPreference: BlockingTaskExecutor.shared) {
          try await instance.post(racedBody, to: racedParameters).status == 200 ? 1 : 0
        }
      }
      return try await group.reduce(0, +)
    }
    #expect(accepted == 1)
    #expect(
      try await b.verifier.result(transactionID: raced.transactionID) != .pending)
  }

  /// The request object is served once across instances, even to racing fetches.
  static func oneFetch(_ backend: VerifierBackend) async throws {
    let (a, b) = try instances(backend)
    let created = try await a.create()
    let served = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<10 {
        let instance = index.isMultiple(of: 2) ? a : b
        group.addTask(executorPreference: BlockingTaskExecutor.shared) {
          (try? await instance.fetch(created.authorizationRequestURI)) == nil ? 0 : 1
        }
      }
      return try await group.reduce(0, +)
    }
    #expect(served == 1)
  }

  static func capacityAndPurge(_ backend: VerifierBackend) async throws {
    let (storeA, storeB) = try backend.pair(capacity: 2)
    let a = try RedirectFixture(store: storeA)
    let b = a.instance(on: storeB)
    _ = try await a.create()
    _ = try await b.create()
    await #expect(throws: PresentationEndpointFailure.self) { try await a.create() }
    // Expired transactions are swept when the next one is made.
    a.clock.advance(601)
    _ = try await b.create()
    #expect(try await storeA.purge(expiredBefore: a.clock.now + 601) == 1)
  }

  /// Failed and wallet-error results read back on the other instance; a result is recorded
  /// once.
  static func storedResults(_ backend: VerifierBackend) async throws {
    let (a, b) = try instances(backend)
    let created = try await a.create()
    let parameters = try await a.requestParameters(created.authorizationRequestURI)
    let wrongNonce = try a.responseBody(
      vpToken: try a.pidToken(parameters, nonce: "not the nonce"),
      state: parameters["state"]?.string ?? "", parameters: parameters, encrypt: true)
    #expect(try await a.post(wrongNonce, to: parameters).status == 400)
    guard
      case .failed(let code, let reason) = try await b.verifier.result(
        transactionID: created.transactionID)
    else {
      Issue.record("B does not read the failure")
      return
    }
    guard
      case .failed(let localCode, let localReason) = try await a.verifier.result(
        transactionID: created.transactionID)
    else { return }
    #expect(code == localCode && reason == localReason)

    let refused = try await b.create()
    let refusedParameters = try await b.requestParameters(refused.authorizationRequestURI)
    let form =
      "error=access_denied&error_description=no&state="
      + (refusedParameters["state"]?.string ?? "")
    #expect(try await a.post(Array(form.utf8), to: refusedParameters).status == 200)
    guard
      case .walletError(let error) = try await b.verifier.result(
        transactionID: refused.transactionID)
    else {
      Issue.record("B does not read the wallet's error")
      return
    }
    #expect(error.error == .accessDenied)
    #expect(error.errorDescription == "no")
  }
}

@Suite("Verifier instances sharing a database")
struct VerifierMultiInstanceTests {
  @Test("on SQLite", arguments: VerifierStoreContract.allCases)
  func sqlite(_ contract: VerifierStoreContract) async throws {
    try await contract.run(.sqlite)
  }

  @Test(
    "on PostgreSQL", .enabled(if: PostgreSQLTestServer.shouldRun), .timeLimit(.minutes(1)),
    arguments: VerifierStoreContract.allCases)
  func postgreSQL(_ contract: VerifierStoreContract) async throws {
    try await contract.run(.postgresql)
  }

  @Test("A stored row that does not read back is store_unavailable (503), never a crash")
  func corruptRow() async throws {
    let directory = TestScratch.url("verifier-corrupt")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("transactions.sqlite").path
    let fixture = try RedirectFixture(store: try SQLitePresentationTransactionStore(path: path))
    let created = try await fixture.create()
    let database = try SQLiteDatabase<StoreError>(path: path, busyTimeout: .seconds(5))
    try database.connection.run("UPDATE presentation_transactions SET body = '{\"id\": 1}'")
    let error = await #expect(throws: PresentationEndpointFailure.self) {
      try await fixture.verifier.result(transactionID: created.transactionID)
    }
    #expect(error?.code == .storeUnavailable)
    #expect(error?.status == 503)
  }
}

/// The fixture is immutable after init and its verifier is Sendable; tests share it across tasks.
extension RedirectFixture: @unchecked Sendable {}
