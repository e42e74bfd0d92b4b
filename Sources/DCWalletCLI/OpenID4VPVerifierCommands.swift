import DCAPI
import DCCrypto
import DCJOSE
import DCJSON
import DCOpenID4VP
import DCTrust
import DCVerifier
import DCWallet
import DCX509
import Foundation

/// `dcwallet verifier request|verify` for OpenID4VP 1.0 over the DC API.
enum OpenID4VPVerifierCommands {
  static func request(
    _ args: ParsedArguments, protocol protocolID: OpenID4VPProtocol, dcqlQuery: JSONValue? = nil,
    _ context: CommandContext
  ) throws {
    let path = VerifierCommand.requestSpec.path
    let query: JSONValue
    if let dcqlQuery {
      query = dcqlQuery
    } else {
      guard let dcqlPath = args.value("dcql") else {
        throw UsageError("--dcql is required for OpenID4VP", command: path)
      }
      do {
        query = try JSONValue(parsing: try Files.read(dcqlPath, limit: .request))
      } catch let error as JSONError {
        throw CommandFailure("\(dcqlPath) is not JSON: \(error.reason)")
      }
    }
    guard
      let mode = ResponseMode(
        rawValue: args.value("response-mode") ?? ResponseMode.dcAPIJWT.rawValue)
    else {
      throw UsageError("--response-mode must be dc_api or dc_api.jwt", command: path)
    }
    guard mode == .dcAPIJWT || args.value("out-key") == nil else {
      throw UsageError(
        "--out-key: a dc_api response is not encrypted, there is no key", command: path)
    }
    let origin = try WebOrigin(args.value("origin") ?? "https://verifier.example").serialized
    let signing = try requestSigning(
      protocolID, signers: try requestSigners(args, command: path), command: path)
    let request: VerifierRequest
    // OpenID4VP 1.0 §5.1 verifier_info: the registration certificate (ETSI TS 119 475).
    let verifierInfo = try RegistrationCertificateFile.read(args).map {
      VerifierRequest.verifierInfo(registrationCertificate: $0)
    }
    do {
      request = try VerifierRequest(
        dcqlQuery: query, origin: origin, responseMode: mode, signing: signing,
        expectedOrigins: protocolID == .unsigned ? nil : [origin], verifierInfo: verifierInfo)
    } catch {
      throw CommandFailure("cannot make the request: \(error.reason)")
    }
    let page = JSONValue.object([
      ("protocol", .string(request.protocolID.rawValue)), ("data", request.data),
    ])
    try Files.write(Array(page.serialized().utf8), to: args.value("out-request") ?? "")
    try SecretFile.create(
      Array(request.state.json.serialized().utf8), to: args.value("out-state") ?? "")
    if let keyPath = args.value("out-key") {
      if let key = request.state.encryptionKey {
        try SecretFile.create(Array(key.json.serialized().utf8), to: keyPath)
      }
    }
    context.console.out(
      "wrote \(args.value("out-request") ?? "") and \(args.value("out-state") ?? "")")
  }

  /// One `x509_san_dns` signer per `--signer-key` and `--signer-cert` pair, named by the leaf's
  /// DNS subject alternative name.
  private static func requestSigners(_ args: ParsedArguments, command path: String) throws
    -> [RequestSigner]
  {
    let keys = args.all("signer-key")
    let certs = args.all("signer-cert")
    guard keys.count == certs.count else {
      throw UsageError(
        "give one --signer-cert (a PEM chain file) for each --signer-key", command: path)
    }
    var signers: [RequestSigner] = []
    for (keyPath, certPath) in zip(keys, certs) {
      let chain = try Inputs.certificates([certPath])
      guard let dns = chain.first.flatMap(VerifierServeCommand.firstDNSName(of:)) else {
        throw CommandFailure(
          "\(certPath): the leaf has no DNS subject alternative name for x509_san_dns")
      }
      signers.append(
        .x509SANDNS(dnsName: dns, certificateChain: chain, signer: try Inputs.privateKey(keyPath)))
    }
    return signers
  }

  /// How the request is signed for `protocolID`, checking the number of signers it takes.
  private static func requestSigning(
    _ protocolID: OpenID4VPProtocol, signers: [RequestSigner], command path: String
  ) throws -> RequestSigning {
    let signing: RequestSigning
    switch protocolID {
    case .unsigned:
      guard signers.isEmpty else {
        throw UsageError("an unsigned request takes no --signer-key", command: path)
      }
      signing = .unsigned
    case .signed:
      guard signers.count == 1 else {
        throw UsageError("a signed request needs exactly one --signer-key", command: path)
      }
      signing = .signed(signers[0])
    case .multisigned, .draft:
      guard !signers.isEmpty else {
        throw UsageError("a multisigned request needs --signer-key", command: path)
      }
      signing = .multisigned(signers)
    }
    return signing
  }

  /// Verifies a response against a state (saved, or rebuilt from the request as sent), with
  /// the mdoc and SD-JWT VC issuer anchors kept apart.
  static func verify(
    response: JSONValue, state: VerifierState, mdocAnchors: [Certificate],
    sdJWTAnchors: [Certificate], now: Date, status: StatusChecking,
    revocation: RevocationSettings? = nil
  ) async throws -> VerifiedAuthorizationResponse {
    let data = response["data"] ?? response
    // Issue 29: with --crl-fetch, the presented chains' distribution points are fetched first.
    let presented = revocation?.fetcher == nil ? [] : state.presentedCertificates(data)
    do {
      return try await revocation.inEffect(for: presented, issuers: sdJWTAnchors + mdocAnchors) {
        () async throws(OpenID4VPError) in
        try await state.verifyResponse(
          data, sdJWTIssuerAnchors: sdJWTAnchors, mdocIssuerAnchors: mdocAnchors, now: now,
          status: status)
      }
    } catch {
      throw CommandFailure("verification failed: \(error.reason)")
    }
  }

  static func print(
    _ verified: VerifiedAuthorizationResponse, json asJSON: Bool, _ context: CommandContext
  ) {
    if asJSON {
      context.console.out(json(verified).serialized())
      return
    }
    for (queryID, credentials) in verified.credentials.sorted(by: { $0.key < $1.key }) {
      for credential in credentials {
        context.console.out(
          "\(queryID): \(credential.format) \(credential.vct ?? credential.docType ?? "")")
        for claim in credential.claims {
          context.console.out(
            "  \(ClaimName.of(claim.path, format: credential.format)): \(claim.value.serialized())")
        }
      }
    }
    for check in VerifierStatusText.statusChecks(verified) {
      context.console.out("ok  \(VerificationCheckText.sentence(check))")
    }
    for check in verified.report.checks {
      context.console.out("ok  \(VerificationCheckText.sentence(check))")
    }
  }

  static func json(_ verified: VerifiedAuthorizationResponse) -> JSONValue {
    .object([
      ("verified", .bool(true)),
      (
        "credentials",
        .object(
          verified.credentials.sorted(by: { $0.key < $1.key }).map { queryID, credentials in
            (
              queryID,
              .array(
                credentials.map { credential in
                  .object([
                    ("format", .string(credential.format)),
                    ("type", .string(credential.vct ?? credential.docType ?? "")),
                    (
                      "claims",
                      .object(
                        credential.claims.map {
                          (ClaimName.of($0.path, format: credential.format), $0.value)
                        })
                    ),
                    ("status", VerifierStatusText.json(credential)),
                  ])
                })
            )
          })
      ),
      (
        "checks",
        .array(
          (verified.report.checks + VerifierStatusText.statusChecks(verified)).map {
            .string(VerificationCheckText.sentence($0))
          })
      ),
    ])
  }
}
