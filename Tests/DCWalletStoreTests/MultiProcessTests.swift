import DCStore
import DCWalletStoreTestSupport
import Foundation
import Testing

@testable import DCWalletStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Two and three processes on one file, as the app and its request UI are on a phone.
@Suite("WalletStore across processes")
struct MultiProcessTests {
  @Test func concurrentWritersFromTwoProcessesLoseNothing() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = dir.databasePath
    let count = 150
    let go = dir.path + "/go"
    // Both probes start against a file that does not exist yet: creation and migration race too.
    let (a, aOutput) = try StoreProbe.start(["write", path, "a", "\(count)", go])
    let (b, bOutput) = try StoreProbe.start(["write", path, "b", "\(count)", go])
    let store = try WalletStore(path: path, busyTimeout: .seconds(30))
    #expect(await StoreProbe.output(aOutput).contains("ready"))
    #expect(await StoreProbe.output(bOutput).contains("ready"))
    // All three writers start together.
    #expect(FileManager.default.createFile(atPath: go, contents: nil))
    for i in 0..<count {
      try await store.insert(sampleCredential(id: "t-\(i)"))
      try await store.append(
        NewActivity(protocolIdentifier: "test", outcome: .shared, detail: "t-\(i)"))
    }
    #expect(await StoreProbe.wait(a) == 0)
    #expect(await StoreProbe.wait(b) == 0)

    let ids = Set(try await store.credentials().map(\.id))
    let expected = Set(["a", "b", "t"].flatMap { p in (0..<count).map { "\(p)-\($0)" } })
    #expect(ids == expected)
    let details = try await store.activities(limit: 10 * count).map(\.detail)
    #expect(details.count == 3 * count)
    #expect(Set(details) == expected)
  }

  @Test func killedWriterLosesOnlyItsOpenTransaction() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = dir.databasePath
    let committed = 25
    let (probe, output) = try StoreProbe.start(["hang", path, "k", "\(committed)"])
    // Wait until the probe sits inside its open transaction, holding the write lock.
    #expect(await StoreProbe.output(output).contains("hanging"))
    #expect(probe.isRunning)

    // A writer that waits less than the lock is held gets a typed `.busy`, not a hang.
    let impatient = try WalletStore(path: path, busyTimeout: .milliseconds(300))
    let clock = ContinuousClock()
    let start = clock.now
    let busy = await #expect(throws: WalletStoreError.self) {
      try await impatient.insert(sampleCredential(id: "blocked"))
    }
    #expect(busy?.code == .busy)
    #expect(clock.now - start >= .milliseconds(250))

    // While the lock is held, readers still see every committed row (WAL).
    let reader = try WalletStore(path: path, busyTimeout: .seconds(10))
    #expect(try await reader.credentials().count == committed)

    kill(probe.processIdentifier, SIGKILL)
    _ = await StoreProbe.wait(probe)
    #expect(probe.terminationReason == .uncaughtSignal)

    let store = try WalletStore(path: path, busyTimeout: .seconds(10))
    let ids = try await store.credentials().map(\.id)
    #expect(Set(ids) == Set((0..<committed).map { "k-\($0)" }))
    #expect(try await store.activities().isEmpty)
    // The lock died with the process: the file takes writes again at once.
    try await store.insert(sampleCredential(id: "after"))
    try await reader.insert(sampleCredential(id: "after-reader"))
    try await impatient.insert(sampleCredential(id: "after-impatient"))
    #expect(try await store.credentials().count == committed + 3)
    #expect(try await store.execute("PRAGMA integrity_check") == [[.text("ok")]])
  }
}
