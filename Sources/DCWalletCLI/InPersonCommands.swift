import DCCrypto
import DCJSON
import DCMdoc
import DCMdocProximity
import DCProximityTransport
import DCVerifier
import DCWallet
import DCX509
import Foundation

/// `HOST:PORT` of the loopback TCP development transport (not part of ISO 18013-5).
struct HostPort {
  let host: String
  let port: UInt16

  static func parse(_ text: String, option: String, command: String) throws -> HostPort {
    guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]),
      colon != text.startIndex
    else {
      throw UsageError("--\(option) takes HOST:PORT, not \"\(text)\"", command: command)
    }
    return HostPort(host: String(text[..<colon]), port: port)
  }
}

/// `dcwallet present`: the holder of an ISO 18013-5 in-person session over loopback TCP.
enum PresentCommand {
  static let spec = CommandSpec(
    path: "dcwallet present",
    summary:
      "Present in person (ISO 18013-5): print the mdoc: URI, accept one reader, answer its requests.",
    options: [
      .value(
        "listen", "HOST:PORT", required: true,
        "the loopback address to accept the reader on (TCP development transport; port 0 picks one)"
      ),
      .flag("qr", "also render the mdoc: URI as a QR code on standard error"),
      .value("credential", "ID", repeating: true, "answer with these credentials"),
      .value(
        "disclose", "NS/EL", repeating: true,
        "disclose only these among the requested elements; others are not returned"),
      .flag("device-mac", "authenticate the device with a deviceMac (default: deviceSignature)"),
      .flag(
        "require-trusted-reader",
        "answer only readers whose reader authentication chains to a trusted reader root"),
      .flag("interactive", "show each request like a consent screen and ask before answering"),
    ] + RegistrationOptions.options + RevocationOptions.options,
    discussion: """
      The first line of standard output is the mdoc: URI (ISO 18013-5 §8.2.2.3), printed once the
      address listens; a reader may connect as soon as it appears. The session runs over the
      loopback TCP development transport (4-byte big-endian length, then the message; not part of
      ISO 18013-5); the engagement keeps its standard BLE option. Exits 0 once the reader ends the
      session. A refusal is sent to the reader (a DeviceResponse with its status), then present
      exits 1 with the reason on standard error.
      """)

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let args = try context.parse(spec, arguments)
    let address = try HostPort.parse(
      args.value("listen") ?? "", option: "listen", command: spec.path)
    let wallet = try context.wallet()
    var policy = wallet.policy
    policy.requireAuthenticatedRequester = args.flag("require-trusted-reader")
    try RegistrationOptions.apply(args, to: &policy)
    // Without --device-mac, a deviceSignature (the contract, whatever the wallet's default).
    policy.inPersonDeviceAuthentication = args.flag("device-mac") ? .mac : .signature
    let listener: LoopbackTCPListener
    do {
      listener = try LoopbackTCPListener(host: address.host, port: address.port)
    } catch {
      throw CommandFailure(error.reason)
    }
    defer { listener.close() }
    let session = try engagedSession()
    // Listening already: the URI line may be acted on at once.
    context.console.out(session.uri)
    if args.flag("qr") { context.console.err(try QRText.render(session.uri)) }
    context.console.err("listening on \(address.host):\(listener.port)")
    let transport: LoopbackTCPTransport
    do {
      transport = try await listener.accept()
    } catch {
      throw CommandFailure(error.reason)
    }
    let selection = Selection(
      credentialIDs: args.all("credential"), disclose: args.all("disclose"),
      interactive: args.flag("interactive"), console: context.console,
      issuerTrust: args.flag("interactive") ? try await wallet.issuerTrustByID() : [:],
      wallet: wallet)
    let outcome: InPersonHolder.Outcome
    do {
      outcome = try await InPersonHolder(wallet: wallet, policy: policy).run(
        session: session, transport: transport, consent: selection.decide)
    } catch {
      throw CommandFailure(error.reason)
    }
    if let refusal = outcome.refusal {
      throw CommandFailure(
        refusal.refusals.isEmpty ? refusal.reason : RefusalText.describe(refusal.refusals))
    }
    context.console.err(
      "answered \(outcome.answered.count) request(s); the reader ended the session")
  }

  /// A holder session with the standard engagement: BLE peripheral server mode with a fresh
  /// service UUID (§8.2.1.1, options 0, 1 and 10).
  private static func engagedSession() throws -> HolderSession {
    do {
      let uuid = SecureRandom.bytes(count: 16)
      return try HolderSession.qr(retrievalMethods: [
        .ble(try BLEOptions(peripheralServerUUID: uuid))
      ])
    } catch {
      throw CommandFailure("no engagement could be made: \(reason(of: error))")
    }
  }

  /// The holder's choice for each request: the command line's selection, and with
  /// `--interactive` the answer to the consent screen.
  struct Selection: Sendable {
    let credentialIDs: [String]
    let disclose: [String]
    let interactive: Bool
    let console: Console
    /// The stored credentials' issuer trust levels, for the consent screen.
    let issuerTrust: [String: IssuerTrust]
    let wallet: Wallet

    func decide(_ request: PresentationRequest) async -> InPersonDecision {
      let consent: PresentationConsent
      do {
        consent = try request.consent(
          ConsentSelection(
            credentialIDs: credentialIDs,
            claims: disclose.isEmpty ? nil : ClaimName.references(disclose, in: request)))
      } catch {
        let reason = await SelectionRefusalText.explain(
          credentialIDs: credentialIDs, disclose: disclose, request: request, wallet: wallet)
        return .decline(reason: reason ?? error.reason)
      }
      if interactive {
        console.err(request.consentScreen(for: consent, issuerTrust: issuerTrust))
        console.err("Share? [y/N] ")
        let answer = Prompt.readAnswer(fromStandardInput: true)
        guard answer == "y" || answer == "yes" else { return .decline(reason: "declined") }
      }
      return .share(consent)
    }
  }
}

/// `dcwallet read`: the reader of an ISO 18013-5 in-person session over loopback TCP.
enum ReadCommand {
  static let spec = CommandSpec(
    path: "dcwallet read",
    summary:
      "Read in person (ISO 18013-5): connect to a presenting wallet, request elements, verify.",
    options: [
      .value("engagement", "URI", required: true, "the mdoc: URI the wallet shows"),
      .value(
        "connect", "HOST:PORT", required: true,
        "the loopback address of 'dcwallet present' (TCP development transport)"),
      .value("doctype", "T", required: true, repeating: true, "a document type to request"),
      .value(
        "element", "NS/EL", required: true, repeating: true,
        "an element to request, for the most recent --doctype"),
      .value("retain", "NS/EL", repeating: true, "mark a requested element as to be retained"),
      .value("reader-key", "FILE", "reader authentication key (PEM)"),
      .value(
        "reader-cert", "FILE", repeating: true, "reader certificate chain, leaf first (PEM or DER)"),
      RegistrationCertificateFile.option,
      .value(
        "issuer-anchor", "FILE", repeating: true,
        "a trusted mdoc issuer: an IACA, or a document signer certificate itself (PEM or DER)"),
      .value("at", "RFC3339", "verify as of this time (default: now), e.g. 2025-06-01T12:00:00Z"),
      .value(
        "status-list", "FILE", repeating: true,
        "a status list token (JWT or CWT) to use instead of fetching it, matched by its sub"),
      .flag("no-status-check", "do not check credential status (the report says it was skipped)"),
      .flag("json", "print JSON, as 'verifier verify --json'"),
    ] + RevocationOptions.options,
    discussion: """
      Prints what was disclosed and each check, as 'verifier verify'; exits 0 only when every check
      passed, 1 when any failed (an element that was not requested, a refusal from the wallet, a
      session error), and ends the session (status 20) in every case.
      A document whose MSO references a status list (IETF Token Status List) has its status
      checked: the list is fetched from its uri (https, or http on loopback) unless --status-list
      gives it, and verified with the same issuer anchors as the document. A revoked (invalid) or
      suspended document fails the verification; an unknown status is reported and does not.
      """)

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let args = try context.parse(spec, arguments)
    let address = try HostPort.parse(
      args.value("connect") ?? "", option: "connect", command: spec.path)
    let items: [ItemsRequest]
    do {
      items = try VerifierCommand.itemsRequests(arguments)
    } catch let error as UsageError {
      throw UsageError(error.message, command: spec.path)
    }
    let now = try VerifierCommand.verificationTime(args)
    let anchors = try Inputs.certificates(args.all("issuer-anchor"))
    let status = try VerifierStatusCheck.checking(args, command: spec.path)
    let reader = try readerCredentials(args)
    let session = try await connect(engagement: args.value("engagement") ?? "", at: address)
    let result: ProximityReader.Result
    do {
      result = try await session.request(
        items, reader: reader, issuerTrustAnchors: anchors, now: now, status: status,
        revocation: context.revocation)
    } catch {
      await session.terminate()
      if args.flag("json") {
        context.console.out(
          JSONValue.object([("verified", .bool(false)), ("error", .string(error.reason))])
            .serialized())
      }
      throw CommandFailure(
        error.code == .verificationFailed ? "verification failed: \(error.reason)" : error.reason)
    }
    await session.terminate()
    VerifierCommand.printAnnexC(result, json: args.flag("json"), context)
  }

  /// `--reader-key` with its `--reader-cert` chain, or nil when neither is given.
  private static func readerCredentials(_ args: ParsedArguments) throws
    -> ProximityReader.ReaderCredentials?
  {
    let registration = try RegistrationCertificateFile.read(args)
    if let keyPath = args.value("reader-key") {
      let chain = try Inputs.certificates(args.all("reader-cert"))
      guard !chain.isEmpty else {
        throw UsageError("--reader-key needs --reader-cert", command: spec.path)
      }
      // The registration (euWrprc) rides in each ItemsRequest, which readerAuth signs.
      return .init(
        signer: try Inputs.privateKey(keyPath), chain: chain,
        registrationCertificate: registration)
    } else if !args.all("reader-cert").isEmpty {
      throw UsageError("--reader-cert needs --reader-key", command: spec.path)
    } else if registration != nil {
      throw UsageError("--registration-cert needs --reader-key", command: spec.path)
    }
    return nil
  }

  /// Checks the engagement URI, connects to the wallet and starts the reader's session.
  private static func connect(engagement uri: String, at address: HostPort) async throws
    -> InPersonReader
  {
    do {
      _ = try DeviceEngagement(uri: uri)
    } catch {
      throw CommandFailure("--engagement: \(error.reason)")
    }
    let transport: LoopbackTCPTransport
    do {
      transport = try await LoopbackTCPConnector.connect(to: address.host, port: address.port)
    } catch {
      throw CommandFailure(error.reason)
    }
    do {
      return try InPersonReader(uri: uri, transport: transport)
    } catch {
      await transport.close()
      throw CommandFailure(error.reason)
    }
  }
}
