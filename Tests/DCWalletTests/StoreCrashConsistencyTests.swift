import DCCrypto
import DCMdoc
import DCStore
import DCWalletFixtureTestSupport
import Dispatch
import Foundation
import Testing

@testable import DCWallet
@testable import DCWalletStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 12 §5: a writer killed with SIGKILL at random points of import / respond / remove
/// loops leaves a store that opens, passes `PRAGMA integrity_check`, keeps every committed
/// credential intact and usable, and holds nothing half-written.
///
/// What "consistent" means for this schema (Sources/CredentialWallet/Store, `SoftwareKeyStore`):
/// - the file: `PRAGMA integrity_check` is `ok`, `PRAGMA foreign_key_check` finds no row naming
///   a missing device key, and the store takes a write lock again (the lock died with the
///   process);
/// - committed: every credential the probe reported imported (and not removed since) is there,
///   and every one it reported removed is gone; only the one operation in flight at the kill
///   may have gone either way;
/// - intact: every credential row decodes (no `StoreProblem`), its `issued` bytes are an
///   `IssuerSigned` whose issuer signature and digests verify, it names a device key, that key's
///   row exists, its stored public key is the key the MSO binds, and the private key unwraps
///   under the KEK and signs (a signature the MSO's key verifies);
/// - no half-written credential: no credential row without a device key (the wallet writes the
///   key and the credential in one transaction); no orphan key: every `device_keys` row is named
///   by exactly one credential (the wallet creates one key per credential and removes the pair
///   in one transaction); every activity row decodes and the count of `shared` entries is the
///   count of answered requests (plus at most the one in flight);
/// - outside SQLite: the software key store keeps only the KEK file in the wallet home, so the
///   home holds nothing but the database, its `-wal` / `-shm` files and `kek` (no temporary
///   files). The KEK is created before the first probe starts; its own creation is a
///   write-then-link(2) and is not under test here.
///
/// The kill delays come from a seeded generator; the seed is printed, and
/// `STORE_CRASH_SEED=<seed>` runs the same schedule again.
@Suite("Store crash consistency: a writer killed at random points")
struct StoreCrashConsistencyTests {
  /// Lanes run side by side, each its own wallet home and probe, to keep the wall time down.
  static let lanes = 4
  static let killsPerLane = 55
  /// The most a probe may run before it is killed, after it has opened the wallet.
  static let maximumKillDelay = 60  // milliseconds
  /// Nothing here runs longer than this, however slow the machine.
  static let overallTimeout: Duration = .seconds(240)

  @Test("SIGKILL at random points of import / respond / remove leaves a consistent store")
  func killedWriterLeavesAConsistentStore() async throws {
    let seed =
      ProcessInfo.processInfo.environment["STORE_CRASH_SEED"].flatMap { UInt64($0) }
      ?? UInt64.random(in: 1...UInt64.max)
    print("store crash consistency: seed \(seed) (STORE_CRASH_SEED=\(seed) repeats the schedule)")
    let deadline = ContinuousClock.now.advanced(by: Self.overallTimeout)
    let tallies = try await withThrowingTaskGroup(of: Tally.self) { group in
      for lane in 0..<Self.lanes {
        group.addTask {
          try await CrashLane(seed: seed, lane: lane, deadline: deadline).run(
            kills: Self.killsPerLane)
        }
      }
      var total = Tally()
      for try await tally in group { total.add(tally) }
      return total
    }
    print("store crash consistency: \(tally: tallies)")
    #expect(tallies.kills >= 200, "only \(tallies.kills) kills before the timeout (seed \(seed))")
    // The kills landed inside each kind of operation, not only between them.
    #expect(tallies.inFlightImports > 0 && tallies.inFlightResponds > 0)
    #expect(tallies.inFlightRemovals > 0)
  }
}

/// What the kills hit.
struct Tally: Sendable {
  var kills = 0
  var imported = 0
  var responded = 0
  var removed = 0
  var inFlightImports = 0
  var inFlightResponds = 0
  var inFlightRemovals = 0

  mutating func add(_ other: Tally) {
    kills += other.kills
    imported += other.imported
    responded += other.responded
    removed += other.removed
    inFlightImports += other.inFlightImports
    inFlightResponds += other.inFlightResponds
    inFlightRemovals += other.inFlightRemovals
  }
}

extension DefaultStringInterpolation {
  mutating func appendInterpolation(tally: Tally) {
    appendLiteral(
      "\(tally.kills) kills; committed \(tally.imported) imports, \(tally.responded) responses, "
        + "\(tally.removed) removals; killed inside \(tally.inFlightImports) imports, "
        + "\(tally.inFlightResponds) responses, \(tally.inFlightRemovals) removals")
  }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a seeded generator, so a schedule can be repeated.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// One wallet home, killed writer after killed writer.
struct CrashLane {
  let seed: UInt64
  let lane: Int
  let deadline: ContinuousClock.Instant

  /// What the last check found: the credential ids, and the `shared` activity entries.
  private struct Model {
    var credentials: Set<String> = []
    var shared = 0
  }

  func run(kills: Int) async throws -> Tally {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let home = WalletHome(directory: dir.path)
    // The database and the KEK exist before the first probe (see the suite's comment).
    _ = try Wallet(home: home, policy: WalletPolicy(acceptsUnverifiedIssuers: true))
    var generator = SeededGenerator(state: seed &+ UInt64(lane) &* 0x1_0000_0001)
    var model = Model()
    var tally = Tally()
    for kill in 0..<kills {
      guard ContinuousClock.now < deadline else {
        Issue.record("lane \(lane): the overall timeout passed after \(kill) kills (seed \(seed))")
        break
      }
      let delay = Int(generator.next() % UInt64(StoreCrashConsistencyTests.maximumKillDelay + 1))
      let place = "seed \(seed), lane \(lane), kill \(kill), delay \(delay) ms"
      let lines = try await killProbe(home: dir.path, tag: "l\(lane)k\(kill)", delay: delay)
      guard let lines else {
        Issue.record("the probe ended before it was killed (\(place))")
        return tally
      }
      tally.kills += 1
      try await check(home: home, lines: lines, model: &model, tally: &tally, place: place)
    }
    return tally
  }

  /// Starts a probe, kills it `delay` ms after it reports ready, and returns every line it
  /// printed; nil when it exited by itself.
  private func killProbe(home: String, tag: String, delay: Int) async throws -> [String]? {
    let (process, pipe) = try StoreProbe.start(["churn", home, tag])
    let reader = pipe.fileHandleForReading
    var output = ""
    while !output.contains("ready\n") {
      let chunk = await StoreProbe.output(pipe)
      if chunk.isEmpty { break }  // end of file: the probe exited
      output += chunk
    }
    if output.contains("ready\n") {
      try await Task.sleep(for: .milliseconds(delay))
      kill(process.processIdentifier, SIGKILL)
    }
    let rest: Data = await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        process.waitUntilExit()
        continuation.resume(returning: reader.readDataToEndOfFile())
      }
    }
    output += String(decoding: rest, as: UTF8.self)
    guard process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGKILL
    else { return nil }
    return output.split(separator: "\n").map(String.init)
  }

  /// Reopens the store and checks it against what the probe reported (see the suite).
  private func check(
    home: WalletHome, lines: [String], model: inout Model, tally: inout Tally, place: String
  ) async throws {
    // What the probe's lines say was committed, and what was in flight at the kill.
    var expected = model.credentials
    var sharedAtLeast = model.shared
    var inFlightImport: String?
    var inFlightRemoval: String?
    var inFlightRespond = false
    for line in lines {
      let words = line.split(separator: " ", maxSplits: 1).map(String.init)
      let id = words.count == 2 ? words[1] : ""
      switch words.first {
      case "importing": inFlightImport = id
      case "imported":
        expected.insert(id)
        inFlightImport = nil
        tally.imported += 1
      case "responding": inFlightRespond = true
      case "responded":
        sharedAtLeast += 1
        inFlightRespond = false
        tally.responded += 1
      case "removing": inFlightRemoval = id
      case "removed":
        expected.remove(id)
        inFlightRemoval = nil
        tally.removed += 1
      default: break
      }
    }
    if inFlightImport != nil { tally.inFlightImports += 1 }
    if inFlightRespond { tally.inFlightResponds += 1 }
    if inFlightRemoval != nil { tally.inFlightRemovals += 1 }

    let store = try WalletStore(path: home.databasePath, busyTimeout: .seconds(10))
    #expect(try await store.execute("PRAGMA integrity_check") == [[.text("ok")]], "\(place)")
    #expect(try await store.execute("PRAGMA foreign_key_check").isEmpty, "\(place)")
    // The killed writer's lock died with it.
    try await store.transaction { _ in }

    // Committed credentials are there, removed ones are gone; only the operation in flight may
    // have gone either way.
    let listing = try await store.credentialListing()
    #expect(listing.problems.isEmpty, "unreadable rows \(listing.problems) (\(place))")
    let found = Set(listing.credentials.map(\.id))
    let mayBeGone = Set([inFlightRemoval].compactMap { $0 })
    let mayBeNew = Set([inFlightImport].compactMap { $0 })
    #expect(
      expected.subtracting(mayBeGone).isSubset(of: found),
      "committed credentials lost: \(expected.subtracting(mayBeGone).subtracting(found)) (\(place))"
    )
    #expect(
      found.isSubset(of: expected.union(mayBeNew)),
      "credentials that were never committed or were removed: \(found.subtracting(expected.union(mayBeNew))) (\(place))"
    )

    // Every credential is intact: it verifies, and its device key is there, matches and signs.
    let keys = try SoftwareKeyStore(
      store: store, keyEncryptionKeyPath: home.keyEncryptionKeyPath)
    let message = Array("crash consistency \(place)".utf8)
    for credential in listing.credentials {
      let verification = try IssuerSigned(bytes: credential.issued).verify(
        trustAnchors: [], at: Date(), requireTrustedIssuer: false)
      guard let keyID = credential.deviceKeyID else {
        Issue.record("credential \(credential.id) names no device key (\(place))")
        continue
      }
      #expect(try await keys.publicKey(for: keyID) == verification.deviceKey, "\(place)")
      let signature = try await keys.signer(for: keyID).signature(for: message)
      #expect(verification.deviceKey.isValidSignature(signature, for: message), "\(place)")
    }

    // No orphan key: every key is named by exactly one credential.
    let keyUse = try await store.execute(
      """
      SELECT k.id, (SELECT count(*) FROM credentials c WHERE c.device_key_id = k.id)
      FROM device_keys k
      """)
    for row in keyUse where row.count == 2 && row[1] != .integer(1) {
      Issue.record("device key \(row[0]) is named by \(row[1]) credentials (\(place))")
    }
    #expect(keyUse.count == listing.credentials.count, "\(place)")

    // The activity log: every entry reads, and one `shared` entry per answered request.
    let activity = try await store.activityListing(limit: 1_000_000)
    #expect(activity.problems.isEmpty, "\(place)")
    let shared = activity.records.filter { $0.outcome == .shared }.count
    let sharedAtMost = sharedAtLeast + (inFlightRespond ? 1 : 0)
    #expect(
      (sharedAtLeast...sharedAtMost).contains(shared),
      "\(shared) shared entries, expected \(sharedAtLeast)...\(sharedAtMost) (\(place))")

    // Outside SQLite: the home holds the database files and the KEK, nothing half-written.
    let files = Set(try FileManager.default.contentsOfDirectory(atPath: home.directory))
    let allowed: Set = ["wallet.sqlite", "wallet.sqlite-wal", "wallet.sqlite-shm", "kek"]
    #expect(files.isSubset(of: allowed), "stray files \(files.subtracting(allowed)) (\(place))")
    _ = try KeyEncryptionKey.load(at: home.keyEncryptionKeyPath)

    model = Model(credentials: found, shared: shared)
  }
}
