import DCAPI
import DCCrypto
import DCHTTP
import DCJSON
import DCOpenID4VP
import DCVerifier
import DCWallet
import DCX509
import Foundation

#if os(Linux)
  import DCHTTPServer
#endif

/// `dcwallet verifier serve|transaction`: the OpenID4VP redirect-flow verifier (issue 16) on
/// 127.0.0.1, and its frontend from the command line.
///
/// `serve` records the URL it is reached at in `verifier/verifier.json` of the wallet home, which
/// `transaction` reads unless `--verifier` is given.
enum VerifierServeCommand {
  static let serveSpec = CommandSpec(
    path: "dcwallet verifier serve",
    summary:
      "Run a verifier (loopback by default) until interrupted: a web page and browser module for the Digital Credentials API, and OpenID4VP openid4vp:// links (direct_post); prints its URL.",
    options: ServeOptions.options + [
      .value(
        "signer-key", "FILE",
        "the request signing key (PEM); default verifier.pem in the wallet home, else in the current directory"
      ),
      .value(
        "signer-cert", "FILE",
        "its certificate chain, leaf first (PEM); default verifier-chain.pem beside the key"),
      .value(
        "attestation-issuer-key", "FILE",
        "verifier_attestation: the attestation issuer's key (PEM); the server attests a fresh key of its own"
      ),
      .value(
        "attestation-issuer-cert", "FILE", repeating: true,
        "verifier_attestation: the attestation issuer's certificate chain, leaf first (PEM)"),
      .value(
        "issuer-anchor", "FILE", repeating: true,
        "a trusted mdoc issuer: an IACA, or a document signer certificate itself (PEM or DER)"),
      .value(
        "sd-jwt-issuer-anchor", "FILE", repeating: true,
        "a trusted SD-JWT VC issuer anchor (PEM or DER)"),
      .value("lifetime", "SECONDS", "how long a transaction lives (default 600)"),
      StoreLocation.option(defaultFile: "verifier/transactions.sqlite in the wallet home"),
      .flag("no-status-check", "do not check credential status (the report says it was skipped)"),
      .value(
        "dc-api-protocol", "P", repeating: true,
        "offer this protocol to the page: org-iso-mdoc, openid4vp-v1-signed, openid4vp-v1-multisigned, openid4vp-v1-unsigned (default: all four)"
      ),
      .value(
        "reader-key", "FILE",
        "the org-iso-mdoc reader key (PEM); default reader-key.pem beside the signer key, if there"),
      .value(
        "reader-cert", "FILE", "its certificate chain, leaf first (default reader.pem beside it)"),
      .flag("no-reader-auth", "send org-iso-mdoc requests without readerAuth"),
      RegistrationCertificateFile.option,
      .value("page", "FILE", "serve this HTML page at / instead of the built-in verifier page"),
      .flag("open", "also print the web page's URL (the second line)"),
    ] + RevocationOptions.options,
    discussion: ServeOptions.discussion + "\n" + """
      Without --public-url the base URL is http://localhost:PORT when the signer is
      x509_san_dns:localhost, else http://127.0.0.1:PORT. The web page is at / of the public URL,
      else of http://127.0.0.1:PORT: DC API answers are verified for that origin.
      The page at / asks for a credential with navigator.credentials.get through the browser
      module /dc-verifier.js (POST /dc-api/transactions, POST /dc-api/transactions/ID/response),
      and shows a QR code of an openid4vp:// link where the browser has no Digital Credentials API
      (GET /dc-api/transactions/ID polls it). Redirect-flow endpoints: POST /transactions and
      GET /transactions/ID[?response_code=C] (frontend),
      GET|POST /request/ID (request_uri), POST /response/ID (response_uri, direct_post and
      direct_post.jwt). The signing certificate's DNS name gives x509_san_dns:NAME; make one for
      loopback with 'dcwallet dev files --origin-host localhost'. x509_hash uses the same key;
      verifier_attestation needs --attestation-issuer-key and --attestation-issuer-cert (a key and
      chain under a verifier CA the wallet trusts); redirect_uri needs nothing.
      """)

  static let transactionSpec = CommandSpec(
    path: "dcwallet verifier transaction",
    summary:
      "Ask a running 'verifier serve' for a presentation: print the openid4vp:// URI, wait for the answer, print it.",
    options: [
      .value("dcql", "FILE", required: true, "the DCQL query (JSON)"),
      .flag(
        "same-device",
        "a same-device flow: after the URI, read the wallet's redirect_uri (with its response_code) from standard input"
      ),
      .flag("qr", "also draw the URI as a QR code on standard error"),
      .value(
        "verifier", "URL", "the server's base URL (default: the one 'verifier serve' recorded)"),
      .value(
        "client-id-prefix", "P",
        "x509_san_dns (default), x509_hash, redirect_uri or verifier_attestation"),
      .value("response-mode", "M", "direct_post.jwt (default) or direct_post"),
      .value("request-uri-method", "M", "get (default) or post"),
      .value("transaction-data", "FILE", repeating: true, "a transaction_data entry (JSON object)"),
      .value("timeout", "SECONDS", "how long to wait for the answer (default 120)"),
      .flag("json", "print JSON"),
    ],
    discussion: """
      The first line of standard output is the URI for the wallet (e.g. 'dcwallet present-uri URI').
      Exit status 0 only when a response arrived and verified; 1 when it failed verification, the
      wallet answered with an error, or nothing arrived in time.
      """)

  // MARK: serve

  static func serve(_ args: ParsedArguments, _ context: CommandContext) async throws {
    #if os(Linux)
      let (configuration, publicURL) = try ServeOptions.configuration(
        args, command: serveSpec.path)
    #endif
    var lifetime: TimeInterval = 600
    if let text = args.value("lifetime") {
      guard let seconds = Int(text), seconds > 0 else {
        throw UsageError("--lifetime needs a positive number of seconds", command: serveSpec.path)
      }
      lifetime = TimeInterval(seconds)
    }
    let (signerKey, chain) = try signingMaterial(args, context)
    guard let leaf = chain.first else {
      throw CommandFailure("the signer certificate chain is empty")
    }
    let dnsName = firstDNSName(of: leaf)
    let sanSigner = dnsName.map {
      RequestSigner.x509SANDNS(dnsName: $0, certificateChain: chain, signer: signerKey)
    }
    let hashSigner = RequestSigner.x509Hash(certificateChain: chain, signer: signerKey)
    let mdocAnchors = try Inputs.certificates(args.all("issuer-anchor"))
    let sdJWTAnchors = try Inputs.certificates(args.all("sd-jwt-issuer-anchor"))
    let status: StatusChecking = try VerifierStatusCheck.checking(args, command: serveSpec.path)
    let store = try StoreLocation(
      args.value("store"), defaultPath: try transactionsFile(context), command: serveSpec.path
    ).verifierStore()
    #if os(Linux)
      let loopback = try LoopbackServer(configuration: configuration, what: "the verifier")
      let (server, router, bound) = (loopback.server, loopback.router, loopback.port)
      let host = dnsName == "localhost" ? "localhost" : "127.0.0.1"
      let base = publicURL ?? "http://\(host):\(bound)"
      let attestation = try attestationSigner(
        args, subject: dnsName ?? "localhost")
      var presentation = PresentationVerifierConfiguration(
        baseURL: base, x509SANDNS: sanSigner, x509Hash: hashSigner, attestation: attestation,
        sdJWTIssuerAnchors: sdJWTAnchors, mdocIssuerAnchors: mdocAnchors, status: status,
        transactionLifetime: lifetime, revocation: context.revocation)
      // OpenID4VP 1.0 §5.1 verifier_info: the registration certificate (ETSI TS 119 475).
      presentation.registrationCertificate = try RegistrationCertificateFile.read(args)
      let verifier = PresentationVerifier(configuration: presentation, store: store)
      let redirect = PresentationVerifierHTTPHandler(verifier: verifier) {
        OpenID4VPVerifierCommands.json($0)
      }
      // The page's origin: the one the server answers for (DC API answers are bound to it).
      let origin = try WebOrigin(publicURL ?? "http://127.0.0.1:\(bound)")
      router.set(
        try BrowserVerifier.handler(
          args, origin: origin, signers: (sanSigner, hashSigner), crossDevice: verifier,
          redirect: redirect, status: status, anchors: (mdocAnchors, sdJWTAnchors), context))
      try recordURL(base, context)
      context.console.out(base)
      if args.flag("open") { context.console.out(origin.serialized + "/") }
      await IssuerCommand.waitForInterrupt()
      server.stop()
    #else
      _ = (lifetime, sanSigner, hashSigner, mdocAnchors, sdJWTAnchors, status, store)
      throw CommandFailure("the development HTTP server needs libmicrohttpd (Linux)")
    #endif
  }

  /// The first DNS name among the certificate's subject alternative names.
  static func firstDNSName(of leaf: Certificate) -> String? {
    leaf.subjectAlternativeNames?.compactMap { name -> String? in
      if case .dnsName(let dns) = name { return dns }
      return nil
    }.first
  }

  /// `--signer-key`/`--signer-cert`, else `verifier.pem`/`verifier-chain.pem` in the wallet home,
  /// else in the current directory (where `dcwallet dev files` writes them).
  static func signingMaterial(_ args: ParsedArguments, _ context: CommandContext) throws -> (
    ECPrivateKey, [Certificate]
  ) {
    if let keyPath = args.value("signer-key") {
      let certPath =
        try args.value("signer-cert")
        ?? LocalPath.appending(
          "verifier-chain.pem", to: LocalPath.parent(of: Files.absolute(keyPath)))
      return (try Inputs.privateKey(keyPath), try Inputs.certificates([certPath]))
    }
    let directories = [try context.home().directory, FileManager.default.currentDirectoryPath]
    for directory in directories {
      let key = LocalPath.appending("verifier.pem", to: directory)
      let cert =
        args.value("signer-cert") ?? LocalPath.appending("verifier-chain.pem", to: directory)
      if FileManager.default.fileExists(atPath: key) {
        return (try Inputs.privateKey(key), try Inputs.certificates([cert]))
      }
    }
    throw CommandFailure(
      "no request signing key: give --signer-key and --signer-cert, or run 'dcwallet dev files --origin-host localhost' here"
    )
  }

  /// A fresh key attested by the `--attestation-issuer-*` issuer, or nil without them.
  /// No `redirect_uris`: each transaction has a `response_uri` of its own (OpenID4VP 1.0 §12).
  static func attestationSigner(_ args: ParsedArguments, subject: String)
    throws -> VerifierAttestationSigner?
  {
    guard let keyPath = args.value("attestation-issuer-key") else {
      guard args.all("attestation-issuer-cert").isEmpty else {
        throw UsageError(
          "--attestation-issuer-cert needs --attestation-issuer-key", command: serveSpec.path)
      }
      return nil
    }
    let chain = try Inputs.certificates(args.all("attestation-issuer-cert"))
    guard !chain.isEmpty else {
      throw UsageError(
        "--attestation-issuer-key needs --attestation-issuer-cert", command: serveSpec.path)
    }
    let key = try ECPrivateKey(curve: .p256)
    let now = Date()
    let jwt = try VerifierAttestationSigner.issue(
      issuer: "https://attestation-issuer.localhost", subject: subject,
      confirmationKey: key.publicKey, issuerSigner: try Inputs.privateKey(keyPath),
      issuerChain: chain, issuedAt: now, expiresAt: now.addingTimeInterval(86_400))
    return VerifierAttestationSigner(attestationJWT: jwt, subject: subject, signer: key)
  }

  static func stateFile(_ context: CommandContext) throws -> String {
    try context.home().directory + "/verifier/verifier.json"
  }

  /// The default transaction store, `verifier/transactions.sqlite` in the wallet home (its
  /// directory made, owner only).
  static func transactionsFile(_ context: CommandContext) throws -> String {
    let path = try context.home().directory + "/verifier/transactions.sqlite"
    try makeDirectory(of: path)
    return path
  }

  static func recordURL(_ url: String, _ context: CommandContext) throws {
    let path = try stateFile(context)
    try makeDirectory(of: path)
    try SecretFile.create(JSONValue.object([("url", .string(url))]).serializedBytes(), to: path)
  }

  private static func makeDirectory(of path: String) throws {
    do {
      try FileManager.default.createDirectory(
        atPath: LocalPath.parent(of: path), withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw CommandFailure("cannot create the verifier directory: \(error.localizedDescription)")
    }
  }

  // MARK: transaction

  static func transaction(_ args: ParsedArguments, _ context: CommandContext) async throws {
    let path = transactionSpec.path
    let base = try verifierBase(args, context)
    var timeout: TimeInterval = 120
    if let text = args.value("timeout") {
      guard let seconds = Double(text), seconds > 0 else {
        throw UsageError("--timeout needs a positive number of seconds", command: path)
      }
      timeout = seconds
    }
    let body = try transactionBody(args, command: path)

    let client = URLSessionHTTPClient(configuration: .init(policy: .development))
    let created = try await send(
      client, .post, base + "/transactions", body: JSONValue.object(body).serializedBytes())
    guard created.status == 201, let json = try? JSONValue(parsing: created.body),
      let id = json["transaction_id"]?.string, let uri = json["authorization_request_uri"]?.string
    else {
      throw CommandFailure("the verifier refused the transaction: \(failureText(created))")
    }
    context.console.outLine(uri)
    if args.flag("qr") { context.console.err(try QRText.render(uri)) }

    let deadline = Date().addingTimeInterval(timeout)
    var responseCode: String? = nil
    if args.flag("same-device") {
      responseCode = try await readResponseCode(deadline: deadline, context)
    }
    let resultURL =
      base + "/transactions/" + id
      + (responseCode.map { "?response_code=" + (PresentationVerifierURL.encode($0)) } ?? "")
    try await pollResult(
      client, resultURL, deadline: deadline, timeout: timeout, json: args.flag("json"), context)
  }

  /// `--verifier` without a trailing slash, else the URL `verifier serve` recorded.
  private static func verifierBase(_ args: ParsedArguments, _ context: CommandContext) throws
    -> String
  {
    if let url = args.value("verifier") {
      return url.hasSuffix("/") ? String(url.dropLast()) : url
    }
    guard let bytes = try? Files.read(try stateFile(context)),
      let url = (try? JSONValue(parsing: bytes))?["url"]?.string
    else {
      throw CommandFailure(
        "no verifier URL recorded: start 'dcwallet verifier serve' first, or give --verifier")
    }
    return url
  }

  /// The options a transaction is created with, checked against their allowed values.
  private static let transactionChoices: [(option: String, member: String, allowed: [String])] = [
    (
      "client-id-prefix", "client_id_prefix",
      ["x509_san_dns", "x509_hash", "redirect_uri", "verifier_attestation"]
    ),
    ("response-mode", "response_mode", DirectPostMode.allCases.map(\.rawValue)),
    (
      "request-uri-method", "request_uri_method",
      VerifierRequestURIMethod.allCases.map(\.rawValue)
    ),
  ]

  /// The `POST /transactions` body: the DCQL query, the flow, the chosen options and the
  /// transaction data files.
  private static func transactionBody(_ args: ParsedArguments, command path: String) throws
    -> [(key: String, value: JSONValue)]
  {
    let dcqlPath = args.value("dcql") ?? ""
    let query: JSONValue
    do {
      query = try JSONValue(parsing: try Files.read(dcqlPath, limit: .request))
    } catch let error as JSONError {
      throw CommandFailure("\(dcqlPath) is not JSON: \(error.reason)")
    }
    var body: [(key: String, value: JSONValue)] = [
      ("dcql_query", query),
      ("flow", .string(args.flag("same-device") ? "same_device" : "cross_device")),
    ]
    for choice in transactionChoices {
      guard let value = args.value(choice.option) else { continue }
      guard choice.allowed.contains(value) else {
        throw UsageError(
          "--\(choice.option) must be \(choice.allowed.joined(separator: ", "))", command: path)
      }
      body.append((choice.member, .string(value)))
    }
    let entries = try args.all("transaction-data").map { file in
      do {
        return try JSONValue(parsing: try Files.read(file, limit: .request))
      } catch let error as JSONError {
        throw CommandFailure("\(file) is not JSON: \(error.reason)")
      }
    }
    if !entries.isEmpty { body.append(("transaction_data", .array(entries))) }
    return body
  }

  /// Polls the transaction's result until it is no longer pending, printing a verified result
  /// and failing on a wallet error, a failed verification or the deadline.
  private static func pollResult(
    _ client: URLSessionHTTPClient, _ resultURL: String, deadline: Date, timeout: TimeInterval,
    json: Bool, _ context: CommandContext
  ) async throws {
    while true {
      let answer = try await send(client, .get, resultURL)
      guard answer.status == 200, let result = try? JSONValue(parsing: answer.body) else {
        throw CommandFailure("the verifier refused the result: \(failureText(answer))")
      }
      switch result["status"]?.string {
      case "pending":
        guard Date() < deadline else {
          throw CommandFailure("no response within \(Int(timeout)) seconds")
        }
        try await Task.sleep(nanoseconds: 200_000_000)
      case "verified":
        printVerified(result["result"] ?? .null, json: json, context)
        return
      case "wallet_error":
        if json { context.console.out(result.serialized()) }
        throw CommandFailure(
          "the wallet answered \(result["error"]?.string ?? "an error")"
            + (result["error_description"]?.string.map { ": " + $0 } ?? ""))
      default:
        if json { context.console.out(result.serialized()) }
        throw CommandFailure(
          "verification failed: \(result["error_description"]?.string ?? "unknown reason")")
      }
    }
  }

  /// Same-device: the frontend learns the `response_code` from the wallet's redirect; here it is
  /// a line of standard input holding the redirect_uri (or `response_code=...`).
  static func readResponseCode(deadline: Date, _ context: CommandContext) async throws -> String {
    let lines = LineReader()
    while Date() < deadline {
      if let line = lines.next() {
        if let range = line.range(of: "response_code=") {
          let code = line[range.upperBound...].prefix { $0 != "&" && $0 != "#" && $0 != " " }
          if !code.isEmpty { return String(code).removingPercentEncoding ?? String(code) }
        }
        continue
      }
      if lines.atEnd {
        throw CommandFailure("standard input ended without the redirect_uri's response_code")
      }
      try await Task.sleep(nanoseconds: 100_000_000)
    }
    throw CommandFailure("no redirect_uri with a response_code on standard input in time")
  }

  static func send(
    _ client: URLSessionHTTPClient, _ method: HTTPMethod, _ url: String, body: [UInt8] = []
  ) async throws -> HTTPResponse {
    guard let target = URL(string: url) else { throw CommandFailure("\(url) is not a URL") }
    do {
      return try await client.send(
        HTTPRequest(
          method: method, url: target,
          headers: body.isEmpty ? [:] : ["Content-Type": "application/json"], body: body))
    } catch {
      throw CommandFailure("cannot reach the verifier at \(url): \(error.reason)")
    }
  }

  static func failureText(_ response: HTTPResponse) -> String {
    let json = try? JSONValue(parsing: response.body)
    return "HTTP \(response.status)"
      + (json?["error_description"]?.string.map { ": " + $0 } ?? "")
  }

  /// Prints a verified result as `verifier verify` prints it (the server rendered it with
  /// ``OpenID4VPVerifierCommands/json(_:)``).
  static func printVerified(_ result: JSONValue, json: Bool, _ context: CommandContext) {
    if json {
      context.console.out(result.serialized())
      return
    }
    for (queryID, credentials) in result["credentials"]?.object ?? [] {
      for credential in credentials.array ?? [] {
        context.console.outLine(
          "\(queryID): \(credential["format"]?.string ?? "") \(credential["type"]?.string ?? "")")
        for (name, value) in credential["claims"]?.object ?? [] {
          context.console.outLine("  \(name): \(value.serialized())")
        }
      }
    }
    for check in result["checks"]?.array ?? [] {
      context.console.outLine("ok  \(check.string ?? "")")
    }
  }
}

enum PresentationVerifierURL {
  static func encode(_ text: String) -> String {
    text.addingPercentEncoding(
      withAllowedCharacters: CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? ""
  }
}

/// Lines of standard input read on a thread of its own, so waiting for one can time out.
final class LineReader: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  private var ended = false

  init() {
    let thread = Thread { [self] in
      while let line = Swift.readLine() {
        lock.withLock { lines.append(line) }
      }
      lock.withLock { ended = true }
    }
    thread.start()
  }

  /// The next line read, if any.
  func next() -> String? {
    lock.withLock { lines.isEmpty ? nil : lines.removeFirst() }
  }

  /// Whether standard input ended and every line was taken.
  var atEnd: Bool { lock.withLock { ended && lines.isEmpty } }
}
