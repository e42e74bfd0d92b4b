import DCEncoding
import DCHTTP
public import DCJSON
public import Foundation

/// Headless Chromium from Debian (`chromium`, driven through `chromium-driver`'s WebDriver
/// endpoint), for the tests of pages a server really serves: it opens a URL with init scripts
/// that run before the page's own (Chrome DevTools `Page.addScriptToEvaluateOnNewDocument`),
/// and returns what the page shows: values from scripts, the DOM, a PNG screenshot, the
/// console. Every wait is bounded.
///
/// Issue 30: the only thing a browser test replaces is the browser's hand-off to a wallet
/// (``WalletBridge`` makes that init script); the page, its scripts, the server and the origin
/// are the real ones.
public final class ChromiumSession: @unchecked Sendable {
  /// Where Debian installs the browser and its driver.
  public static let browserPath = "/usr/bin/chromium"
  public static let driverPath = "/usr/bin/chromedriver"

  /// Whether both are installed (and curl, which sends the WebDriver commands).
  public static var isAvailable: Bool {
    [browserPath, driverPath, "/usr/bin/curl"].allSatisfy {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// Whether a missing browser fails the tests instead of skipping them (`.ci/run` sets
  /// `DCWALLET_REQUIRE_BROWSER=1`).
  public static var isRequired: Bool {
    ProcessInfo.processInfo.environment["DCWALLET_REQUIRE_BROWSER"] == "1"
  }

  /// Whether browser tests run here: the browser is installed, or CI requires it (and the test
  /// then fails saying it is missing).
  public static var shouldRun: Bool { isAvailable || isRequired }

  /// What went wrong driving the browser.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
  }

  private let driver: Process
  private let base: String
  private let session: String
  private let client = Client(timeout: 60)

  /// Starts the driver and a headless browser with a phone-sized window, installs
  /// `initScripts` (each runs before any script of every page loaded later) and opens `url`.
  /// `bypassingContentSecurityPolicy` lets the init scripts reach a test server on another
  /// port from a page whose CSP limits `connect-src` to itself (a real browser hands the
  /// request to the OS, not to a `fetch`); the page's own scripts are then not held to its CSP.
  public init(
    url: String, initScripts: [String] = [], windowSize: (Int, Int) = (412, 915),
    bypassingContentSecurityPolicy: Bool = false
  ) async throws {
    guard Self.isAvailable else {
      throw Failure(
        "\(Self.browserPath) and \(Self.driverPath) are required: apt-get install chromium chromium-driver curl"
      )
    }
    (driver, base) = try await Self.startDriver(client)
    var started: String? = nil
    do {
      let capabilities: JSONValue = .object([
        (
          "capabilities",
          .object([
            (
              "alwaysMatch",
              .object([
                ("browserName", "chrome"),
                (
                  "goog:chromeOptions",
                  .object([
                    ("binary", .string(Self.browserPath)),
                    (
                      "args",
                      .array(
                        [
                          "--headless=new", "--no-sandbox", "--disable-gpu",
                          "--disable-dev-shm-usage", "--no-first-run",
                          "--window-size=\(windowSize.0),\(windowSize.1)",
                        ].map { .string($0) })
                    ),
                  ])
                ),
                ("goog:loggingPrefs", .object([("browser", "ALL")])),
              ])
            )
          ])
        )
      ])
      let created = try await Self.call(client, .post, base + "/session", capabilities)
      guard let id = created["sessionId"]?.string else {
        throw Failure("chromedriver made no session: \(created.serialized())")
      }
      started = id
      session = base + "/session/" + id
      if bypassingContentSecurityPolicy {
        _ = try await Self.call(
          client, .post, session + "/goog/cdp/execute",
          .object([
            ("cmd", "Page.setBypassCSP"), ("params", .object([("enabled", .bool(true))])),
          ]))
      }
      for script in initScripts {
        _ = try await Self.call(
          client, .post, session + "/goog/cdp/execute",
          .object([
            ("cmd", "Page.addScriptToEvaluateOnNewDocument"),
            ("params", .object([("source", .string(script))])),
          ]))
      }
      _ = try await Self.call(client, .post, session + "/url", .object([("url", .string(url))]))
    } catch {
      if started == nil { Self.end(driver) }
      FileHandle.standardError.write(Data("ChromiumSession: \(error)\n".utf8))
      throw error
    }
  }

  deinit { closeDriver() }

  /// chromedriver on a free port: a port taken by another process makes it exit, then the
  /// next of at most five random ports is tried; each start is given 20 seconds.
  private static func startDriver(_ client: Client) async throws -> (Process, String) {
    var last: (any Error)? = nil
    for _ in 0..<5 {
      let port = Int.random(in: 20_000..<60_000)
      let driver = Process()
      driver.executableURL = URL(fileURLWithPath: driverPath)
      driver.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
      driver.standardOutput = FileHandle.nullDevice
      driver.standardError = FileHandle.nullDevice
      try driver.run()
      let base = "http://127.0.0.1:\(port)"
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline, driver.isRunning {
        do {
          if try await call(client, .get, base + "/status")["ready"]?.bool == true {
            return (driver, base)
          }
        } catch {
          last = error
        }
        try await Task.sleep(nanoseconds: 100_000_000)
      }
      end(driver)
    }
    throw Failure("chromedriver did not start: \(last.map { "\($0)" } ?? "")")
  }

  /// One WebDriver command; its `value`. Sent with curl: chromedriver writes `Content-Length:N`
  /// without the space, which Foundation's URLSession on Linux fails to read (URLError -1).
  private static func call(
    _ client: Client, _ method: HTTPMethod, _ url: String, _ body: JSONValue? = nil
  ) async throws -> JSONValue {
    let (status, bytes) = try await client.send(method.rawValue, url, body?.serializedBytes())
    let json = try JSONValue(parsing: bytes)
    guard status == 200 else {
      throw Failure("WebDriver \(method) \(url): HTTP \(status) \(json.serialized())")
    }
    return json["value"] ?? .null
  }

  /// `curl` (Debian's), one process per command, bounded by `--max-time`.
  struct Client: Sendable {
    let timeout: Int

    func send(_ method: String, _ url: String, _ body: [UInt8]?) async throws -> (Int, [UInt8]) {
      try await withCheckedThrowingContinuation { continuation in
        Thread {
          continuation.resume(with: Result { try run(method, url, body) })
        }.start()
      }
    }

    private func run(_ method: String, _ url: String, _ body: [UInt8]?) throws -> (Int, [UInt8]) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
      process.arguments =
        ["-s", "-X", method, "--max-time", "\(timeout)", "-w", "\n%{http_code}"]
        + (body == nil ? [] : ["-H", "Content-Type: application/json", "--data-binary", "@-"])
        + [url]
      let input = Pipe()
      let output = Pipe()
      process.standardInput = input
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      input.fileHandleForWriting.write(Data(body ?? []))
      try input.fileHandleForWriting.close()
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      guard process.terminationStatus == 0, let newline = data.lastIndex(of: 0x0A) else {
        throw Failure("curl \(method) \(url) failed (exit \(process.terminationStatus))")
      }
      let status = Int(String(decoding: data[data.index(after: newline)...], as: UTF8.self)) ?? 0
      return (status, Array(data[..<newline]))
    }
  }

  /// The value of `script` (a function body: `return ...;`), run in the page.
  public func evaluate(_ script: String) async throws -> JSONValue {
    try await Self.call(
      client, .post, session + "/execute/sync",
      .object([("script", .string(script)), ("args", .array([]))]))
  }

  /// Waits until `condition` (an expression) is truthy in the page, at most `timeout` seconds,
  /// polling every 50 ms.
  public func waitUntil(_ condition: String, timeout: TimeInterval = 30) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if try await evaluate("return !!(\(condition));") == .bool(true) { return }
      try await Task.sleep(nanoseconds: 50_000_000)
    }
    throw Failure(
      "\(condition) did not hold within \(Int(timeout)) seconds; console: \(try await console())")
  }

  /// The page's DOM as HTML.
  public func dom() async throws -> String {
    try await evaluate("return document.documentElement.outerHTML;").string ?? ""
  }

  /// A PNG screenshot of the window.
  public func screenshot() async throws -> [UInt8] {
    let text = try await Self.call(client, .get, session + "/screenshot").string ?? ""
    return try Base64.decode(text)
  }

  /// The console's messages since the last call.
  public func console() async throws -> [String] {
    let entries = try await Self.call(
      client, .post, session + "/se/log", .object([("type", "browser")]))
    return (entries.array ?? []).compactMap { $0["message"]?.string }
  }

  /// Ends the session and the driver (and with them the browser).
  public func close() async {
    _ = try? await Self.call(client, HTTPMethod("DELETE"), session)
    closeDriver()
  }

  /// chromedriver does not always end on SIGTERM while it starts a browser: SIGKILL, then reap.
  private func closeDriver() { Self.end(driver) }

  private static func end(_ driver: Process) {
    if driver.isRunning {
      kill(driver.processIdentifier, SIGKILL)
      driver.waitUntilExit()
    }
  }
}
