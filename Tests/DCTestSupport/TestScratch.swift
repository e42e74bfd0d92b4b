public import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where tests write files: one directory per test process, under the system's temporary
/// directory, removed with everything in it when the process exits. Swift Testing has no
/// run-wide teardown, so the removal is an `atexit` handler; a test that crashes the process
/// leaves its directory behind (named after the process, for finding it).
public enum TestScratch {
  /// The process's scratch directory, created on first use.
  public static var directory: URL { URL(fileURLWithPath: root, isDirectory: true) }

  /// A fresh location inside ``directory`` (nothing created there): `prefix-<UUID>`.
  public static func url(_ prefix: String) -> URL {
    directory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
  }

  /// ``url(_:)`` as a path.
  public static func path(_ prefix: String) -> String { url(prefix).path }

  private static let root: String = {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dcwallet-tests-\(getpid())-\(UUID().uuidString.prefix(8))"
    ).path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { TestScratch.removeAll() }
    return path
  }()

  private static func removeAll() { try? FileManager.default.removeItem(atPath: root) }
}
