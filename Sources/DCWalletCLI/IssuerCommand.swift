import DCCBOR
import DCCrypto
import DCHTTP
import DCIssuer
import DCJSON
import DCOpenID4VCI
import DCWallet
import DCX509
import Foundation

#if os(Linux)
  import DCHTTPServer
#endif

/// `dcwallet issuer serve|offer`: a development OpenID4VCI issuer on 127.0.0.1.
///
/// Both subcommands work on one state directory: `issuer/` in the wallet home, or the directory
/// of `--config FILE`. It holds `state.sqlite` (codes, tokens, nonces, transactions: the
/// `IssuerStore` SQLite file, shared across processes), the development PKI (`iaca.pem`,
/// `iaca-key.pem`, `ds.pem`, `ds-key.pem`, made on first use) and `issuer.json`, where `serve`
/// records the URL it listens on. `offer` reads that URL and writes the offer's code into the
/// same SQLite file, so a running `serve` redeems it.
enum IssuerCommand {
  static let serveSpec = CommandSpec(
    path: "dcwallet issuer serve",
    summary:
      "Run an OpenID4VCI issuer (loopback by default) until interrupted; prints its URL.",
    options: ServeOptions.options + [
      .value("config", "FILE", "issuer settings (JSON); its directory holds the issuer's state"),
      StoreLocation.option(defaultFile: "state.sqlite in the state directory"),
      .flag("auto-approve", "approve authorization requests without the consent page"),
      RegistrationCertificateFile.option,
    ],
    discussion: ServeOptions.discussion + "\n" + """
      The state directory is DIR/issuer in the wallet home, or the directory of --config.
      --config is a JSON object, every member optional:
        {"batch_size": 10, "deferred": ["mDL"], "deferred_delay": 0,
         "response_encryption": "required" | "optional", "require_par": false,
         "auto_approve": false, "status_list_bits": 2, "status_list_size": 16384}
      Every credential gets an entry in a Token Status List published at
      URL/status-lists/N (status_list_bits 1: revocation only; 2: suspension too).
      Configurations: mDL (mso_mdoc org.iso.18013.5.1.mDL) and pid (dc+sd-jwt urn:eudi:pid:1).
      URL/ is a page that offers a credential to the browser's wallet with
      navigator.credentials.create and the openid4vci-v1 protocol (Digital Credentials API).
      """)

  static let offerSpec = CommandSpec(
    path: "dcwallet issuer offer",
    summary:
      "Make a credential offer for the issuer of this state directory; prints the offer URI.",
    options: [
      .value("configuration", "ID", required: true, repeating: true, "a configuration to offer"),
      .flag("pre-authorized", "a pre-authorized code grant (default: authorization code)"),
      .flag("tx-code", "with --pre-authorized: demand a transaction code"),
      .flag("by-reference", "put only a credential_offer_uri in the offer URI"),
      .value("config", "FILE", "the same --config the server was started with"),
      StoreLocation.option(defaultFile: "state.sqlite in the state directory"),
    ],
    discussion: """
      Prints the offer URI on one line; with --tx-code, the transaction code on the next line
      (in real use it reaches the holder over another channel). The offer is recorded in the
      state directory's SQLite file, which the running 'dcwallet issuer serve' reads.
      """)

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let rest = Array(arguments.dropFirst())
    switch arguments.first {
    case "serve": try await serve(try context.parse(serveSpec, rest), context)
    case "offer": try offer(try context.parse(offerSpec, rest), context)
    case "credentials":
      try IssuerStatusCommands.credentials(
        try context.parse(IssuerStatusCommands.credentialsSpec, rest), context)
    case let word? where CredentialStatusChange(rawValue: word) != nil:
      let change = CredentialStatusChange(rawValue: word) ?? .revoke
      try IssuerStatusCommands.change(
        change, try context.parse(IssuerStatusCommands.changeSpec(change), rest), context)
    case "--help", "-h":
      throw HelpShown(
        text: ([serveSpec.help, offerSpec.help, IssuerStatusCommands.credentialsSpec.help]
          + CredentialStatusChange.allCases.map { IssuerStatusCommands.changeSpec($0).help })
          .joined(separator: "\n\n"))
    default:
      throw UsageError(
        arguments.first.map { "unknown issuer subcommand '\($0)'" }
          ?? "issuer needs a subcommand: serve, offer, credentials, revoke, suspend or reinstate",
        command: "dcwallet issuer")
    }
  }

  // MARK: serve

  static func serve(_ args: ParsedArguments, _ context: CommandContext) async throws {
    #if os(Linux)
      let (configuration, publicURL) = try ServeOptions.configuration(
        args, command: serveSpec.path)
    #endif
    let state = try StateDirectory(args, context: context)
    var settings = try state.settings()
    if args.flag("auto-approve") { settings.autoApprove = true }
    // ETSI TS 119 472-3 §4.2.3: published in the metadata's issuer_info.
    settings.registrationCertificate = try RegistrationCertificateFile.read(args)
    #if os(Linux)
      let loopback = try LoopbackServer(configuration: configuration, what: "the issuer")
      let (server, router, bound) = (loopback.server, loopback.router, loopback.port)
      let url = publicURL ?? "http://127.0.0.1:\(bound)"
      let service = try state.service(url: url, settings: settings)
      // The issuer's endpoints, and at / a page offering credentials over the DC API.
      router.set(IssuerPageHandler(service: service))
      try state.recordURL(url)
      context.console.out(url)
      await waitForInterrupt()
      server.stop()
    #else
      _ = (state, settings)
      throw CommandFailure("the development HTTP server needs libmicrohttpd (Linux)")
    #endif
  }

  /// Returns when the process gets SIGINT or SIGTERM.
  static func waitForInterrupt() async {
    let once = ResumeOnce()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      once.set(continuation)
      for signalNumber in [SIGINT, SIGTERM] {
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
        source.setEventHandler { once.resume() }
        source.resume()
        once.keep(source)
      }
    }
  }

  // MARK: offer

  static func offer(_ args: ParsedArguments, _ context: CommandContext) throws {
    let state = try StateDirectory(args, context: context)
    guard let url = state.recordedURL() else {
      throw CommandFailure(
        "no issuer URL recorded in \(state.directory): start 'dcwallet issuer serve' first")
    }
    if args.flag("tx-code"), !args.flag("pre-authorized") {
      throw UsageError("--tx-code goes with --pre-authorized", command: offerSpec.path)
    }
    let service = try state.service(url: url, settings: try state.settings())
    let grant: OfferGrantKind =
      args.flag("pre-authorized")
      ? .preAuthorized(transactionCode: args.flag("tx-code")) : .authorizationCode
    let created: CreatedOffer
    do {
      created = try service.createOffer(
        configurationIDs: args.all("configuration"), grant: grant,
        byReference: args.flag("by-reference"))
    } catch let error as OpenID4VCIError {
      throw CommandFailure(error.reason)
    } catch {
      throw CommandFailure("cannot record the offer: \(reason(of: error))")
    }
    context.console.outLine(created.uri)
    if let code = created.transactionCode { context.console.outLine(code) }
  }
}

/// The settings `--config` gives.
struct DevelopmentIssuerSettings {
  var batchSize: Int? = 10
  var deferred: Set<String> = []
  var deferredDelay: TimeInterval? = 0
  var responseEncryption: ResponseEncryptionPolicy?
  var requirePAR = false
  var autoApprove = false
  /// `--registration-cert`: the issuer's registration certificate (not a settings-file member).
  var registrationCertificate: [UInt8]?
  /// Token Status Lists (issue 15): 2 bits per entry by default, so suspension works.
  var statusLists = StatusListSettings()

  init() {}

  init(json: JSONValue) throws {
    guard json.object != nil else { throw CommandFailure("the issuer config is not a JSON object") }
    if let value = json["batch_size"] {
      guard let size = value.int, size == 0 || (2...100).contains(size) else {
        throw CommandFailure("batch_size must be 0 (none) or 2 to 100")
      }
      batchSize = size == 0 ? nil : size
    }
    if let value = json["deferred"] {
      guard let ids = value.array?.compactMap(\.string), ids.count == value.array?.count else {
        throw CommandFailure("deferred must be an array of configuration ids")
      }
      deferred = Set(ids)
    }
    if let value = json["deferred_delay"] {
      guard let delay = value.int, delay >= 0 else {
        throw CommandFailure("deferred_delay must be a number of seconds")
      }
      deferredDelay = TimeInterval(delay)
    }
    switch json["response_encryption"]?.string {
    case nil: break
    case "required": responseEncryption = ResponseEncryptionPolicy(required: true)
    case "optional": responseEncryption = ResponseEncryptionPolicy(required: false)
    default: throw CommandFailure("response_encryption must be \"required\" or \"optional\"")
    }
    requirePAR = json["require_par"]?.bool ?? false
    autoApprove = json["auto_approve"]?.bool ?? false
    if let value = json["status_list_bits"] {
      guard let bits = value.int, bits == 1 || bits == 2 else {
        throw CommandFailure("status_list_bits must be 1 or 2")
      }
      statusLists.bits = bits
    }
    if let value = json["status_list_size"] {
      guard let size = value.int, size >= 8, size % 8 == 0, size <= 1 << 24 else {
        throw CommandFailure("status_list_size must be a multiple of 8 from 8 to 16777216")
      }
      statusLists.size = size
    }
  }
}

/// The development issuer's state directory (see ``IssuerCommand``).
struct StateDirectory {
  let directory: String
  let configPath: String?
  /// `--store`, nil for the SQLite file in the directory.
  let storeURL: String?

  /// The state directory of a command's `--config` and `--store`.
  init(_ args: ParsedArguments, context: CommandContext) throws {
    try self.init(config: args.value("config"), store: args.value("store"), context: context)
  }

  init(config: String?, store: String? = nil, context: CommandContext) throws {
    storeURL = store
    if let config {
      configPath = config
      directory = LocalPath.parent(of: try Files.absolute(config))
    } else {
      configPath = nil
      directory = try context.home().directory + "/issuer"
    }
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw CommandFailure("cannot create \(directory): \(error.localizedDescription)")
    }
  }

  func path(_ name: String) -> String { LocalPath.appending(name, to: directory) }

  func settings() throws -> DevelopmentIssuerSettings {
    guard let configPath else { return DevelopmentIssuerSettings() }
    let bytes = try Files.read(configPath)
    guard let json = try? JSONValue(parsing: bytes) else {
      throw CommandFailure("\(configPath) is not JSON")
    }
    return try DevelopmentIssuerSettings(json: json)
  }

  func recordURL(_ url: String) throws {
    // Every file in the state directory is 0600 from its creation: the directory may be a
    // shared one (the directory of --config), where the default umask would make it readable.
    try SecretFile.create(
      JSONValue.object([("credential_issuer", .string(url))]).serializedBytes(),
      to: path("issuer.json"))
  }

  func recordedURL() -> String? {
    guard let bytes = try? Files.read(path("issuer.json")),
      let json = try? JSONValue(parsing: bytes)
    else { return nil }
    return json["credential_issuer"]?.string
  }

  /// The development PKI, made on first use and kept here.
  func pki() throws -> DevelopmentIssuer {
    let names = ["iaca.pem", "iaca-key.pem", "ds.pem", "ds-key.pem"].map(path)
    if names.allSatisfy(FileManager.default.fileExists(atPath:)) {
      do {
        return DevelopmentIssuer(
          iacaKey: try ECPrivateKey(pemRepresentation: try Files.text(names[1])),
          iaca: try Certificate(pemEncoded: try Files.text(names[0])),
          dsKey: try ECPrivateKey(pemRepresentation: try Files.text(names[3])),
          ds: try Certificate(pemEncoded: try Files.text(names[2])))
      } catch let error as CommandFailure {
        throw error
      } catch {
        throw CommandFailure(
          "the issuer's PKI in \(directory) does not read: \(reason(of: error))")
      }
    }
    let now = Date()
    let pki = try DevelopmentIssuer(
      name: "dcwallet development issuer", from: now.addingTimeInterval(-86_400),
      until: now.addingTimeInterval(5 * 365 * 86_400))
    try SecretFile.create(Array(pki.iaca.pemString.utf8), to: names[0])
    try SecretFile.create(Array(pki.iacaKey.pemRepresentation.utf8), to: names[1])
    try SecretFile.create(Array(pki.ds.pemString.utf8), to: names[2])
    try SecretFile.create(Array(pki.dsKey.pemRepresentation.utf8), to: names[3])
    return pki
  }

  func service(url: String, settings: DevelopmentIssuerSettings) throws
    -> CredentialIssuerService
  {
    let identifier: IssuerIdentifier
    do {
      identifier = try IssuerIdentifier(url, policy: .development)
    } catch {
      throw CommandFailure("\(url) is not an issuer URL: \(error.reason)")
    }
    let pki = try pki()
    let store = try store()
    var configuration: IssuerConfiguration
    do {
      configuration = try DevelopmentIssuerCatalog.configuration(
        identifier: identifier, pki: pki, settings: settings)
      configuration.registrationCertificate = settings.registrationCertificate
    } catch {
      throw CommandFailure("cannot certify the SD-JWT VC issuer key: \(reason(of: error))")
    }
    return CredentialIssuerService(configuration: configuration, store: store)
  }
}

/// What the development issuer issues.
enum DevelopmentIssuerCatalog {
  static let mdlDoctype = "org.iso.18013.5.1.mDL"
  static let pidVCT = "urn:eudi:pid:1"

  static func configuration(
    identifier: IssuerIdentifier, pki: DevelopmentIssuer, settings: DevelopmentIssuerSettings
  ) throws -> IssuerConfiguration {
    let mdl = IssuableCredential(
      id: "mDL",
      content: .mdoc(
        doctype: mdlDoctype,
        nameSpaces: [
          (
            nameSpace: "org.iso.18013.5.1",
            elements: [
              (identifier: "family_name", value: .textString("Mustermann")),
              (identifier: "given_name", value: .textString("Erika")),
              (identifier: "birth_date", value: .tagged(1004, .textString("1971-09-01"))),
              (identifier: "document_number", value: .textString("D-0001")),
              (identifier: "age_over_18", value: .boolean(true)),
            ]
          )
        ]),
      display: [CredentialDisplay(name: "Mobile Driving Licence", locale: "en")])
    let pid = IssuableCredential(
      id: "pid",
      content: .sdJWT(
        vct: pidVCT,
        claims: .object([
          ("given_name", .string("Erika")), ("family_name", .string("Mustermann")),
          ("age_over_18", .bool(true)),
        ])),
      display: [CredentialDisplay(name: "Person Identification Data", locale: "en")])
    // SD-JWT VCs get a leaf naming the issuer URL (SD-JWT VC §3.5); mdocs keep the document signer.
    let sdJWTIssuer = try pki.sdJWTIssuerIdentity(for: identifier.string)
    var configuration = IssuerConfiguration(
      credentialIssuer: identifier,
      display: [IssuerDisplay(name: "dcwallet development issuer", locale: "en")],
      credentials: [mdl, pid], batchSize: settings.batchSize, signer: pki.dsKey,
      certificateChain: [pki.ds], iacas: [pki.iaca], autoApprove: settings.autoApprove,
      deferred: settings.deferred.isEmpty
        ? nil
        : DeferredIssuanceSettings(
          configurationIDs: settings.deferred, delay: settings.deferredDelay, interval: 1),
      responseEncryption: settings.responseEncryption,
      requirePushedAuthorizationRequests: settings.requirePAR, statusLists: settings.statusLists)
    configuration.sdJWTSigning = IssuerSigningIdentity(
      signer: sdJWTIssuer.key, certificateChain: [sdJWTIssuer.certificate])
    return configuration
  }
}

#if os(Linux)
  /// A development server on 127.0.0.1 whose handler is set once its port is known (the URLs it
  /// serves name the port): `issuer serve`, `verifier serve` and the demo start it this way.
  struct LoopbackServer {
    let server: DevelopmentHTTPServer
    let router = LateBoundHandler()
    let port: UInt16

    /// Listens on 127.0.0.1:`port` (0: any free port); `what` names the server in the failure.
    init(port: UInt16 = 0, what: String) throws {
      try self.init(configuration: DevelopmentHTTPServer.Configuration(port: port), what: what)
    }

    /// Listens where `configuration` says; `what` names the server in the failure.
    init(configuration: DevelopmentHTTPServer.Configuration, what: String) throws {
      server = DevelopmentHTTPServer(handler: router, configuration: configuration)
      do {
        self.port = try server.start()
      } catch {
        throw CommandFailure("\(what) cannot listen: \(error.reason)")
      }
    }
  }
#endif

/// A handler whose target is set once the server knows its port (the issuer's URL names it).
final class LateBoundHandler: HTTPHandler, HTTPEndpointPolicyProviding, @unchecked Sendable {
  private let lock = NSLock()
  private var target: (any HTTPHandler)?

  /// The target's policy, when it declares one.
  func endpointPolicy(method: HTTPMethod, path: String) -> HTTPEndpointPolicy? {
    let target = lock.withLock { self.target } as? any HTTPEndpointPolicyProviding
    return target?.endpointPolicy(method: method, path: path)
  }

  func set(_ handler: any HTTPHandler) { lock.withLock { target = handler } }

  func handle(_ request: HTTPRequest) async -> HTTPResponse {
    guard let target = lock.withLock({ target }) else {
      return HTTPResponse(status: 503, headers: ["Retry-After": "1"], body: [])
    }
    return await target.handle(request)
  }
}

/// Resumes one continuation once, from whichever signal comes first.
final class ResumeOnce: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Void, Never>?
  private var sources: [any DispatchSourceSignal] = []

  func set(_ continuation: CheckedContinuation<Void, Never>) {
    lock.withLock { self.continuation = continuation }
  }

  func keep(_ source: any DispatchSourceSignal) { lock.withLock { sources.append(source) } }

  func resume() {
    let continuation = lock.withLock { () -> CheckedContinuation<Void, Never>? in
      defer { self.continuation = nil }
      return self.continuation
    }
    continuation?.resume()
  }
}

extension DevelopmentIssuer {
  /// A PKI read back from its files.
  init(iacaKey: ECPrivateKey, iaca: Certificate, dsKey: ECPrivateKey, ds: Certificate) {
    self.iacaKey = iacaKey
    self.iaca = iaca
    self.dsKey = dsKey
    self.ds = ds
  }
}
