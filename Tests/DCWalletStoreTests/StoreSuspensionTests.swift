import DCWalletStoreTestSupport
import Foundation
import Testing

@testable import DCWalletStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A flag set inside a transaction body and read by the test, across threads.
private final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}

/// What another process sees of the store's file locks (`dcstore-probe locks`).
private func locks(_ path: String) async throws -> String {
  let (probe, output) = try StoreProbe.start(["locks", path])
  let line = await StoreProbe.output(output)
  #expect(await StoreProbe.wait(probe) == 0)
  return line.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// iOS kills a suspended process that holds a lock on a file in a shared container
/// (0xdead10cc): `WalletStore.suspend()` must leave no lock behind and no transaction half done.
@Suite("WalletStore suspension")
struct StoreSuspensionTests {
  @Test func suspendReleasesEveryFileLockAndResumeRestoresTheStore() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    try await store.insert(sampleCredential(id: "before"))
    // An open WAL connection keeps a shared lock on the -shm file, even when idle.
    #expect(try await locks(dir.databasePath).hasPrefix("held"))

    await store.suspend()
    #expect(store.isSuspended)
    #expect(try await locks(dir.databasePath) == "free")

    // While suspended, calls fail typed and touch nothing.
    let refused = await #expect(throws: WalletStoreError.self) {
      try await store.insert(sampleCredential(id: "while-suspended"))
    }
    #expect(refused?.code == .suspended)
    #expect(try await locks(dir.databasePath) == "free")

    try await store.resume()
    #expect(!store.isSuspended)
    try await store.insert(sampleCredential(id: "after"))
    #expect(try await store.credentials().map(\.id) == ["before", "after"])
    // The reopened connection is configured again: foreign keys are enforced.
    let orphan = await #expect(throws: WalletStoreError.self) {
      try await store.insert(sampleCredential(id: "orphan", deviceKeyID: "no-such-key"))
    }
    #expect(orphan?.code == .constraintViolation)
    // Suspending twice and resuming twice is harmless.
    await store.suspend()
    await store.suspend()
    try await store.resume()
    try await store.resume()
    #expect(try await store.credentials().count == 2)
  }

  @Test func suspendInterruptsAnInFlightTransactionAndRollsItBack() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    try await store.insert(sampleCredential(id: "committed"))
    let started = Flag()
    let writer = Task {
      try await store.transaction { tx in
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(20))
        var i = 0
        // Writes until something stops it; a working suspend() does within milliseconds.
        while clock.now < deadline {
          try tx.insert(sampleCredential(id: "in-flight-\(i)"))
          i += 1
          if i == 10 { started.set() }
        }
      }
    }
    while !started.isSet { try await Task.sleep(for: .milliseconds(5)) }
    let clock = ContinuousClock()
    let start = clock.now
    await store.suspend()
    let result = await writer.result
    // Generous under a loaded machine; without suspend() the writer runs its full 20 s and succeeds.
    #expect(clock.now - start < .seconds(12))
    let suspendedError = #expect(throws: WalletStoreError.self) { try result.get() }
    #expect(suspendedError?.code == .suspended)
    #expect((try? result.get()) == nil)
    if case .failure(let error as WalletStoreError) = result { #expect(error.code == .suspended) }
    #expect(try await locks(dir.databasePath) == "free")

    try await store.resume()
    #expect(try await store.credentials().map(\.id) == ["committed"])
    try await store.insert(sampleCredential(id: "after"))
  }

  @Test func suspendInterruptsARunningStatement() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    // One statement that runs for tens of seconds unless interrupted (sqlite3_interrupt).
    let query = Task {
      try await store.execute(
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000000) "
          + "SELECT count(*) FROM c")
    }
    try await Task.sleep(for: .milliseconds(300))
    let clock = ContinuousClock()
    let start = clock.now
    await store.suspend()
    let result = await query.result
    #expect(clock.now - start < .seconds(12))
    if case .failure(let error as WalletStoreError) = result {
      #expect(error.code == .suspended)
    } else {
      Issue.record("the statement was not interrupted: \(result)")
    }
    try await store.resume()
    #expect(try await store.credentials().isEmpty)
  }

  @Test func suspendEndsAWaitForAnotherProcesssLock() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = dir.databasePath
    let (probe, output) = try StoreProbe.start(["hang", path, "p", "1"])
    defer { kill(probe.processIdentifier, SIGKILL) }
    #expect(await StoreProbe.output(output).contains("hanging"))
    // This store would wait 30 s for the probe's write lock.
    let store = try WalletStore(path: path, busyTimeout: .seconds(30))
    let blocked = Task { try await store.insert(sampleCredential(id: "blocked")) }
    try await Task.sleep(for: .milliseconds(300))
    let clock = ContinuousClock()
    let start = clock.now
    await store.suspend()
    let result = await blocked.result
    #expect(clock.now - start < .seconds(12))
    if case .failure(let error as WalletStoreError) = result {
      #expect(error.code == .suspended)
    } else {
      Issue.record("the insert did not fail: \(result)")
    }
    kill(probe.processIdentifier, SIGKILL)
    _ = await StoreProbe.wait(probe)
    try await store.resume()
    try await store.insert(sampleCredential(id: "after"))
    #expect(try await store.credentials().map(\.id) == ["p-0", "after"])
  }
}
