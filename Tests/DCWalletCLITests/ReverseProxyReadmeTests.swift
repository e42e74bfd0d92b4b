import DCTestSupport
import Foundation
import Testing

/// The README's "Behind a reverse proxy (nginx)" commands run as written (issue 31): Debian's
/// nginx terminates TLS (a test CA made with openssl) on 127.0.0.1:18443 and balances two
/// `dcwallet verifier serve --trusted-proxy 127.0.0.1 --store $DATABASE_URL` instances on
/// 127.0.0.1:18081 and :18082 that share one database of a real PostgreSQL server. The script
/// kills them all when it ends. nginx runs unprivileged: as the test's user, or as nobody when
/// that is root (CI).
///
/// Skipped where nginx, openssl, curl or a PostgreSQL server is missing, except in CI (`CI=true`,
/// or `DCWALLET_REQUIRE_INTEROP=1` as `.ci/run` sets), where their absence fails the test.
@Suite("README reverse proxy", .enabled(if: PostgreSQLTestServer.shouldRun))
struct ReverseProxyReadmeTests {
  static let heading = "## Behind a reverse proxy (nginx)"
  static let tools = ["/usr/sbin/nginx", "/usr/bin/openssl", "/usr/bin/curl", "/usr/bin/setpriv"]

  static var missing: [String] {
    tools.filter { !FileManager.default.isExecutableFile(atPath: $0) }
  }

  static var required: Bool {
    let environment = ProcessInfo.processInfo.environment
    return environment["CI"] == "true" || environment["DCWALLET_REQUIRE_INTEROP"] == "1"
  }

  @Test(
    "Two instances on one database behind nginx: a transaction on the public origin, its request object served once across them, kept when its instance dies; other origins, media types and hosts refused",
    .enabled(
      if: missing.isEmpty || required,
      "needs nginx, openssl and curl (apt-get install nginx-light openssl curl)"))
  func deploymentRuns() throws {
    try #require(
      Self.missing.isEmpty,
      "CI needs \(Self.missing.joined(separator: ", ")): .ci/run installs nginx-light, openssl and curl"
    )
    let block = try ReadmeTourTests.shellBlock(under: Self.heading)
    let wrapper = try Self.unprivilegedNginx()
    let database = try PostgreSQLTestServer.freshDatabase()
    let (status, out, err) = try ReadmeTourTests.runScript(
      "export DATABASE_URL='\(database)'\n" + block, named: "reverse-proxy", timeLimit: 90,
      pathPrefix: wrapper)
    #expect(status == 0, "the deployment block failed:\n\(err)\n\(out)")
    let lines = out.split(separator: "\n").map(String.init)
    #expect(lines.count == 7, "\(out)\n\(err)")
    guard lines.count == 7 else { return }
    #expect(
      lines[0].contains("request_uri=https%3A%2F%2Flocalhost%3A18443%2Frequest%2F"), "\(out)")
    // The request object once (one instance), then refused (the other): single use across them.
    #expect(lines[1] == "200", "\(out)")
    #expect(lines[2].contains(#""failure":"request_already_fetched""#), "\(out)")
    // The instance that made the transaction is gone; the other one serves it.
    #expect(lines[3] == #"{"status":"pending"}"#, "\(out)")
    #expect(Array(lines[4...]) == ["403", "415", "421"], "\(out)\n\(err)")
  }

  /// As root (CI), a directory holding an `nginx` that hands the script's directory to nobody
  /// and runs the real nginx as nobody (`setpriv`): nginx runs unprivileged, as it does for any
  /// user who runs the README's commands. Nil when not root.
  static func unprivilegedNginx() throws -> String? {
    guard getuid() == 0 else { return nil }
    let directory = TestScratch.path("nginx-as-nobody")
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o755])
    let script = """
      #!/bin/sh
      chown -R nobody:nogroup "$PWD"
      exec setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/sbin/nginx "$@"

      """
    try Data(script.utf8).write(to: URL(fileURLWithPath: directory + "/nginx"))
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o755], ofItemAtPath: directory + "/nginx")
    return directory
  }
}
