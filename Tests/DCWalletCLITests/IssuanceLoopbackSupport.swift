import DCHTTP
import DCIssuer
import DCOpenID4VCI
import DCTestSupport
import DCWallet
import Foundation
import Testing

@testable import DCWalletCLI

#if os(Linux)
  import DCHTTPServer

  /// The development issuer (`dcwallet issuer serve`'s catalog and handlers, SQLite state) on
  /// 127.0.0.1 and an ephemeral port, in this process.
  final class LoopbackIssuer: @unchecked Sendable {
    let server: DevelopmentHTTPServer
    let service: CredentialIssuerService
    let url: String
    let pki: DevelopmentIssuer
    let directory: String

    /// A fresh issuer; with `state`, the one of that CLI state directory (shared with
    /// `dcwallet issuer offer --config`). `adjust` edits a fresh issuer's configuration.
    init(
      settings: DevelopmentIssuerSettings = DevelopmentIssuerSettings(),
      state: StateDirectory? = nil,
      adjust: (inout IssuerConfiguration, DevelopmentIssuer) throws -> Void = { _, _ in },
      wrap: (any HTTPHandler) -> any HTTPHandler = { $0 }
    )
      throws
    {
      directory =
        state?.directory
        ?? TestScratch.path("dcwallet-issuer")
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true)
      let router = LateBoundHandler()
      server = DevelopmentHTTPServer(
        handler: router,
        configuration: DevelopmentHTTPServer.Configuration(
          port: 0, connectionTimeout: 10, handlerTimeout: 10))
      let port = try server.start()
      url = "http://127.0.0.1:\(port)"
      if let state {
        pki = try state.pki()
        service = try state.service(url: url, settings: settings)
        try state.recordURL(url)
      } else {
        let now = Date()
        pki = try DevelopmentIssuer(
          name: "loopback test", from: now.addingTimeInterval(-3_600),
          until: now.addingTimeInterval(86_400))
        let store = try SQLiteIssuerStateStore(path: directory + "/state.sqlite")
        var configuration = try DevelopmentIssuerCatalog.configuration(
          identifier: try IssuerIdentifier(url, policy: .development), pki: pki,
          settings: settings)
        try adjust(&configuration, pki)
        service = CredentialIssuerService(configuration: configuration, store: store)
      }
      router.set(wrap(IssuerHTTPHandler(service: service)))
    }

    deinit { server.stop() }

    /// A wallet in a fresh home, and the issuance glue over a real URLSession client.
    func wallet() throws -> WalletIssuance {
      let home = TestScratch.path("dcwallet-wallet")
      try WalletHome(directory: home).create()
      let wallet = try Wallet(home: WalletHome(directory: home))
      let http = URLSessionHTTPClient(
        configuration: URLSessionHTTPClient.Configuration(policy: .development, timeout: 10))
      return WalletIssuance(
        wallet: wallet,
        client: IssuanceClient(
          http: http, configuration: IssuanceClient.Configuration(urlPolicy: .development)))
    }

    /// The events the issuer's notification endpoint received.
    func events() throws -> [NotificationRequest.Event] {
      try service.receivedNotifications().map(\.event)
    }
  }

  /// The test's "browser": fetches the authorization URL without following redirects (the
  /// development issuer auto-approves) and returns the redirect URL it names.
  func followAuthorizationRedirect(_ url: URL) async throws -> URL {
    let http = URLSessionHTTPClient(
      configuration: URLSessionHTTPClient.Configuration(policy: .development, timeout: 10))
    let response = try await http.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 302 || response.status == 303)
    guard let location = response.headers["Location"], let redirect = URL(string: location) else {
      throw CommandFailure("no Location in the authorization response")
    }
    return redirect
  }
#endif

/// Runs the dcwallet binary on a thread of its own, so the test's wait never holds one of Swift's
/// cooperative threads (an in-process server's handlers run on them).
func runDCWalletOffPool(_ cli: DCWallet, _ arguments: [String], stdin: String = "") async throws
  -> DCWallet.Result
{
  try await withCheckedThrowingContinuation { continuation in
    Thread {
      continuation.resume(with: Result { try cli.run(arguments, stdin: stdin) })
    }.start()
  }
}
