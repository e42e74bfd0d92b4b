import DCEncoding
// Helpers shared by the test targets: hex, and running independent Python implementations.
import Foundation
public import Testing

/// Decodes hex (either case) with `DCEncoding.Hex`; other characters such as spaces are skipped,
/// and text that is not whole bytes of hex records an issue and gives no bytes.
public func hexBytes(_ hex: String) -> [UInt8] {
  let digits = String(
    hex.unicodeScalars.filter { $0.properties.isASCIIHexDigit }.map(Character.init))
  do {
    return try Hex.decode(digits)
  } catch {
    Issue.record("not hex: \(error)")
    return []
  }
}

/// Lowercase hex of bytes, `DCEncoding.Hex`'s encoding.
public func hexString(_ bytes: some Sequence<UInt8>) -> String { Hex.encode(bytes) }

/// Runs Python peers (pyhpke, pycose, joserfc, cryptography, ...) from the interop venv.
///
/// An interop test carries the ``Testing/Trait/pythonPeers`` trait and calls `PythonPeer.run`:
/// when the venv is missing the trait reports the test as skipped, except with
/// `DCWALLET_REQUIRE_INTEROP=1` (set by `.ci/run`), where the test runs and fails on the missing
/// peers. A test never passes without having run its peer.
public enum PythonPeer {
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// The interpreter: `$DCWALLET_PYTHON`, else `.venv/bin/python` at the package root.
  public static var interpreter: String {
    if let env = ProcessInfo.processInfo.environment["DCWALLET_PYTHON"], !env.isEmpty { return env }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent()
    return root.appendingPathComponent(".venv/bin/python").path
  }

  /// Whether the interpreter exists.
  public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: interpreter) }

  /// Whether CI demands the peers (`DCWALLET_REQUIRE_INTEROP=1`).
  public static var isRequired: Bool {
    ProcessInfo.processInfo.environment["DCWALLET_REQUIRE_INTEROP"] == "1"
  }

  /// Whether an interop test runs: when the peers are installed, or when they are required
  /// (and the test then fails on their absence rather than being skipped).
  public static func shouldRun(installed: Bool, required: Bool) -> Bool { installed || required }

  /// Why an interop test was skipped.
  public static var skipReason: String {
    "needs the Python peers at \(interpreter) (run: bash .ci/run, or set DCWALLET_PYTHON)"
  }

  /// Throws unless the peers can run: the check an interop test makes before using them.
  public static func require(
    _ test: String, installed: Bool = isInstalled, required: Bool = isRequired
  ) throws {
    guard installed else {
      throw Failure(
        description: "interop test '\(test)' "
          + (required ? "requires the peers (DCWALLET_REQUIRE_INTEROP=1) but " : "")
          + skipReason)
    }
  }

  /// The check interop tests made before the ``Testing/Trait/pythonPeers`` trait existed, kept
  /// for them: true when the peers are installed; otherwise it throws, so a test without the
  /// trait fails instead of passing silently. New tests use the trait and ``require(_:installed:required:)``.
  public static func available(_ test: String) throws -> Bool {
    try require(test)
    return true
  }

  /// Runs a Python script with the given standard input; returns standard output.
  /// A non-zero exit is an error carrying standard error.
  public static func run(_ script: String, input: String = "") throws -> String {
    try require("python")
    let result = try runProcess(interpreter, ["-c", script], input: Array(input.utf8))
    guard result.status == 0 else {
      throw Failure(description: "python exited \(result.status): \(result.err)")
    }
    return result.out
  }
}

/// What a child process wrote and how it ended.
public struct ProcessResult: Sendable {
  public let status: Int32
  public let out: String
  public let err: String
}

/// Runs a program to completion with the given standard input and environment.
public func runProcess(
  _ executable: String, _ arguments: [String], input: [UInt8] = [],
  environment: [String: String]? = nil, currentDirectory: String? = nil
) throws -> ProcessResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  if let environment { process.environment = environment }
  if let currentDirectory {
    process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory, isDirectory: true)
  }
  let stdin = Pipe()
  let stdout = Pipe()
  let stderr = Pipe()
  process.standardInput = stdin
  process.standardOutput = stdout
  process.standardError = stderr
  try process.run()
  stdin.fileHandleForWriting.write(Data(input))
  try stdin.fileHandleForWriting.close()
  // Read standard error on another thread so neither pipe can fill up and block the child.
  let errBox = ErrorBox()
  let reader = Thread { errBox.data = stderr.fileHandleForReading.readDataToEndOfFile() }
  reader.start()
  let out = stdout.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  while !errBox.done { usleep(1000) }
  return ProcessResult(
    status: process.terminationStatus, out: String(decoding: out, as: UTF8.self),
    err: String(decoding: errBox.data ?? Data(), as: UTF8.self))
}

private final class ErrorBox: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Data?
  var data: Data? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
  var done: Bool { data != nil }
}

extension Trait where Self == ConditionTrait {
  /// Interop tests against the Python peers: skipped (and reported as skipped) when the venv is
  /// missing, run (and failing) when `DCWALLET_REQUIRE_INTEROP=1` demands the peers.
  public static var pythonPeers: Self {
    .enabled(
      if: PythonPeer.shouldRun(installed: PythonPeer.isInstalled, required: PythonPeer.isRequired),
      Comment(rawValue: PythonPeer.skipReason))
  }
}

/// How much longer `body(large)` takes than `body(small)`: the best of `runs` timings of each,
/// taken alternately so that a busy machine slows both sides alike. Timings are the calling
/// thread's CPU time, so time spent preempted by other processes (CI runs the suite in
/// parallel on two cores) is not counted. Linear work gives about
/// `large / small`, quadratic work its square.
///
/// A shared machine can still skew one measurement, so up to `attempts` measurements are made
/// and the smallest ratio is returned as soon as it is below `bound`: noise does not repeat,
/// quadratic work does.
public func scalingRatio(
  small: Int, large: Int, runs: Int = 7, attempts: Int = 4, bound: Double,
  _ body: (Int) throws -> Void
) rethrows -> Double {
  func threadCPUTime() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }
  func measure(_ count: Int) throws -> Double {
    let start = threadCPUTime()
    try body(count)
    return threadCPUTime() - start
  }
  var best = Double.infinity
  for _ in 0..<attempts {
    var smallBest = Double.infinity
    var largeBest = Double.infinity
    for _ in 0..<runs {
      smallBest = min(smallBest, try measure(small))
      largeBest = min(largeBest, try measure(large))
    }
    best = min(best, largeBest / max(smallBest, 1e-6))
    if best < bound { break }
  }
  return best
}

/// Runs CPU-heavy synchronous work (a Longfellow verification: seconds in a debug build) on a
/// thread of its own and awaits it, so the test never holds one of Swift's cooperative threads
/// meanwhile: on two cores, tests that do would starve the suites whose loopback servers and
/// child processes run on that pool.
public func offCooperativePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T)
  async throws -> T
{
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread { continuation.resume(with: Result { try body() }) }
    thread.stackSize = 8 << 20
    thread.start()
  }
}
