import DCHTTP
import Foundation

#if os(Linux)
  import DCHTTPServer
#endif

/// The listening and hardening options `issuer serve` and `verifier serve` share: where the
/// server listens, the one public URL it answers for, the reverse proxies it trusts, and its
/// connection limits and deadlines. The flags and their English live here; the server takes the
/// typed `DevelopmentHTTPServer.Configuration`.
enum ServeOptions {
  static let options: [CommandSpec.Option] = [
    .value(
      "listen", "ADDR:PORT",
      "the address and port to listen on (default 127.0.0.1; [::1]:PORT for IPv6; port 0: any free port)"
    ),
    .value("port", "PORT", "the port on 127.0.0.1, as --listen 127.0.0.1:PORT"),
    .value(
      "public-url", "URL",
      "the URL clients reach the server at, the only origin it answers for (Host checked; needed unless listening on loopback)"
    ),
    .value(
      "trusted-proxy", "ADDR", repeating: true,
      "a reverse proxy whose Forwarded (RFC 7239) or X-Forwarded-For/-Host/-Proto are believed (numeric address)"
    ),
    .value("max-connections", "N", "connections served at once (default 64)"),
    .value(
      "max-connections-per-client", "N",
      "connections one client address may hold (behind a trusted proxy: requests in flight; default 16)"
    ),
    .value(
      "head-timeout", "SECONDS", "time a client has to send a whole request head (default 10)"),
    .value("body-timeout", "SECONDS", "time a client has to send a whole body (default 30)"),
  ]

  static let discussion = """
    Deployment: listen on loopback behind a TLS reverse proxy, e.g. --listen 127.0.0.1:8080
    --public-url https://rp.example --trusted-proxy 127.0.0.1; requests whose Host (or, from the
    proxy, Forwarded host=/proto= or else X-Forwarded-Host/-Proto) names another origin get 421,
    state-changing requests from another origin's page 403, a body of the wrong Content-Type 415;
    a malformed Forwarded from the proxy 400.
    """

  #if os(Linux)
    /// The server configuration the flags give, and the public URL without a trailing slash.
    static func configuration(_ args: ParsedArguments, command: String) throws -> (
      DevelopmentHTTPServer.Configuration, publicURL: String?
    ) {
      var configuration = DevelopmentHTTPServer.Configuration()
      switch (args.value("listen"), args.value("port")) {
      case (let listen?, nil):
        (configuration.address, configuration.port) = try listenAddress(listen, command: command)
      case (nil, let port?):
        guard let port = UInt16(port) else {
          throw UsageError("--port needs a number from 0 to 65535", command: command)
        }
        configuration.port = port
      case (nil, nil):
        throw UsageError("give --listen ADDR:PORT (or --port PORT)", command: command)
      case (_?, _?):
        throw UsageError("give --listen or --port, not both", command: command)
      }
      var publicURL: String?
      if let text = args.value("public-url") {
        guard let url = URL(string: text), let origin = HTTPOrigin(url: url),
          url.query == nil, url.fragment == nil
        else {
          throw UsageError(
            "--public-url needs an http or https URL with a host and no query", command: command)
        }
        configuration.publicOrigin = origin
        publicURL = text.hasSuffix("/") ? String(text.dropLast()) : text
      } else if !configuration.address.isLoopback {
        throw UsageError(
          "listening on \(configuration.address) needs --public-url (the origin clients use)",
          command: command)
      }
      configuration.trustedProxies = Set(
        try args.all("trusted-proxy").map { text in
          guard let address = IPAddress(numeric: text) else {
            throw UsageError(
              "--trusted-proxy needs a numeric IP address, not \(text)", command: command)
          }
          return address
        })
      try limits(args, into: &configuration, command: command)
      return (configuration, publicURL)
    }

    /// `ADDR:PORT` or `[V6]:PORT`, numeric only.
    static func listenAddress(_ text: String, command: String) throws -> (IPAddress, UInt16) {
      let failure = UsageError(
        "--listen needs ADDR:PORT with a numeric address (127.0.0.1:8080, [::1]:8080)",
        command: command)
      guard let colon = text.lastIndex(of: ":"),
        let port = UInt16(text[text.index(after: colon)...])
      else { throw failure }
      var host = text[..<colon]
      if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
      guard let address = IPAddress(numeric: String(host)) else { throw failure }
      return (address, port)
    }

    private static func limits(
      _ args: ParsedArguments, into configuration: inout DevelopmentHTTPServer.Configuration,
      command: String
    ) throws {
      func count(_ name: String) throws -> UInt32? {
        guard let text = args.value(name) else { return nil }
        guard let value = UInt32(text), value > 0, value <= 10_000 else {
          throw UsageError("--\(name) needs a number from 1 to 10000", command: command)
        }
        return value
      }
      func seconds(_ name: String) throws -> TimeInterval? {
        guard let text = args.value(name) else { return nil }
        guard let value = Double(text), value > 0, value <= 3600 else {
          throw UsageError(
            "--\(name) needs seconds, more than 0 and at most 3600", command: command)
        }
        return value
      }
      if let value = try count("max-connections") { configuration.maxConnections = value }
      if let value = try count("max-connections-per-client") {
        configuration.maxConnectionsPerClient = value
      }
      if let value = try seconds("head-timeout") { configuration.headDeadline = value }
      if let value = try seconds("body-timeout") { configuration.bodyDeadline = value }
    }
  #endif
}
