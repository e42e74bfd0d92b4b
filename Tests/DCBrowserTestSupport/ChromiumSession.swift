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

  /// Whether both are installed.
  public static var isAvailable: Bool {
    FileManager.default.isExecutableFile(atPath: browserPath)
      && FileManager.default.isExecutableFile(atPath: driverPath)
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

  private let driver = Process()
  private let base: String
  private let session: String
  private let client = URLSessionHTTPClient(
    configuration: .init(policy: .development, timeout: 60, maxResponseBytes: 32 << 20))

  /// Starts the driver and a headless browser with a phone-sized window, installs
  /// `initScripts` (each runs before any script of every page loaded later) and opens `url`.
  public init(url: String, initScripts: [String] = [], windowSize: (Int, Int) = (412, 915))
    async throws
  {
    guard Self.isAvailable else {
      throw Failure(
        "\(Self.browserPath) and \(Self.driverPath) are required: apt-get install chromium chromium-driver"
      )
    }
    let port = Int.random(in: 20_000..<60_000)
    base = "http://127.0.0.1:\(port)"
    driver.executableURL = URL(fileURLWithPath: Self.driverPath)
    driver.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
    driver.standardOutput = FileHandle.nullDevice
    driver.standardError = FileHandle.nullDevice
    try driver.run()
    var started: String? = nil
    do {
      try await Self.waitForDriver(client, base)
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
      if started == nil, driver.isRunning {
        driver.terminate()
        driver.waitUntilExit()
      }
      throw error
    }
  }

  deinit { closeDriver() }

  private static func waitForDriver(_ client: URLSessionHTTPClient, _ base: String) async throws {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if let status = try? await call(client, .get, base + "/status"),
        status["ready"]?.bool == true
      {
        return
      }
      try await Task.sleep(nanoseconds: 100_000_000)
    }
    throw Failure("chromedriver did not start within 20 seconds")
  }

  /// One WebDriver command; its `value`.
  private static func call(
    _ client: URLSessionHTTPClient, _ method: HTTPMethod, _ url: String, _ body: JSONValue? = nil
  ) async throws -> JSONValue {
    guard let target = URL(string: url) else { throw Failure("\(url) is not a URL") }
    let response = try await client.send(
      HTTPRequest(
        method: method, url: target,
        headers: body == nil ? [:] : ["Content-Type": "application/json"],
        body: body?.serializedBytes() ?? []))
    let json = try JSONValue(parsing: response.body)
    guard response.status == 200 else {
      throw Failure("WebDriver \(method) \(url): HTTP \(response.status) \(json.serialized())")
    }
    return json["value"] ?? .null
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

  private func closeDriver() {
    if driver.isRunning {
      driver.terminate()
      driver.waitUntilExit()
    }
  }
}
