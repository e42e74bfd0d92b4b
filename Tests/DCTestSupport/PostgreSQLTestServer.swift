// Issue 31: the PostgreSQL server the multi-instance tests run against.
import Foundation

/// A real PostgreSQL server for tests: `$DCWALLET_POSTGRESQL_URL` (`.ci/run` starts a throwaway
/// cluster with `.ci/postgres-cluster` and exports it), else a cluster this test process starts
/// itself the same way when Debian's `postgresql` is installed (stopped when the process
/// exits).
///
/// A test that needs it carries `.enabled(if: PostgreSQLTestServer.shouldRun)`: skipped where
/// there is no server, except in CI (`DCWALLET_REQUIRE_INTEROP=1`, set by `.ci/run`), where it
/// runs and fails on the missing server. Each test takes a database of its own
/// (``freshDatabase()``).
public enum PostgreSQLTestServer {
  public struct Unavailable: Error, CustomStringConvertible {
    public let description: String
  }

  /// Whether CI demands the server.
  public static var isRequired: Bool {
    ProcessInfo.processInfo.environment["DCWALLET_REQUIRE_INTEROP"] == "1"
  }

  /// Whether a PostgreSQL test runs: when a server is there, or when it is required.
  public static var shouldRun: Bool { url != nil || isRequired }

  /// The server's URL (its `postgres` database), nil when there is none.
  public static let url: String? = {
    if let url = ProcessInfo.processInfo.environment["DCWALLET_POSTGRESQL_URL"], !url.isEmpty {
      return url
    }
    guard !isRequired else { return nil }  // CI gives the URL; a missing one fails there
    return startOwnCluster()
  }()

  /// The package root (for `.ci/postgres-cluster`).
  static var root: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  nonisolated(unsafe) static var ownCluster: String?

  private static func startOwnCluster() -> String? {
    let script = root.appendingPathComponent(".ci/postgres-cluster").path
    let initdb = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?
      .contains {
        FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb")
      }
    guard initdb == true else { return nil }
    let directory =
      NSTemporaryDirectory() + "dcpg-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    guard let result = try? runProcess("/bin/bash", [script, "start", directory]),
      result.status == 0
    else { return nil }
    ownCluster = directory
    atexit {
      if let directory = PostgreSQLTestServer.ownCluster {
        let script = PostgreSQLTestServer.root.appendingPathComponent(".ci/postgres-cluster").path
        _ = try? runProcess("/bin/bash", [script, "stop", directory])
      }
    }
    return result.out.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The URL of a new, empty database on the server, for one test.
  ///
  /// - Throws: ``Unavailable`` when there is no server (in CI: the test fails).
  public static func freshDatabase() throws -> String {
    guard let url else {
      throw Unavailable(
        description:
          "no PostgreSQL server: set DCWALLET_POSTGRESQL_URL (.ci/run starts one with .ci/postgres-cluster) or install Debian's postgresql"
      )
    }
    guard var components = URLComponents(string: url) else {
      throw Unavailable(description: "DCWALLET_POSTGRESQL_URL is not a URL: \(url)")
    }
    // A name made here, never input; CREATE DATABASE takes no parameters.
    let name =
      "dc_test_"
      + (0..<12).map { _ in String("abcdefghijklmnopqrstuvwxyz".randomElement()!) }.joined()
    let result = try runProcess(
      "/usr/bin/psql", [url, "-qAt", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE \(name)"])
    guard result.status == 0 else {
      throw Unavailable(description: "CREATE DATABASE failed: \(result.err)")
    }
    components.path = "/" + name
    return components.string ?? url
  }
}

/// Threads for test tasks that block (a database call, a lock wait): a `TaskExecutor` on a
/// concurrent dispatch queue, as the HTTP server runs its handlers, so that many of them at once
/// never hold Swift's cooperative pool, which the other tests of the process need.
public final class BlockingTaskExecutor: TaskExecutor, @unchecked Sendable {
  public static let shared = BlockingTaskExecutor()
  private let queue = DispatchQueue(label: "tests.blocking", attributes: .concurrent)

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}
