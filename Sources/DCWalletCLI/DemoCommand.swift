import DCAPI
import DCCBOR
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCOrgIsoMdoc
import DCSDJWT
import DCVerifier
import DCWallet
import DCX509
import Foundation

/// The whole flow in a fresh temporary wallet: a development PKI, issuance, import, a verifier
/// request with reader authentication, the wallet's answer, and the verification.
enum DemoCommand {
  static let spec = CommandSpec(
    path: "dcwallet demo",
    summary: "Run the whole DC API flow in a temporary wallet, offline, and explain each step.",
    options: [.flag("keep", "keep the temporary wallet home and print its path")])

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let args = try context.parse(spec, arguments)
    let console = context.console
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dcwallet-demo-\(UUID().uuidString.prefix(8))"
    ).path
    defer { if !args.flag("keep") { try? FileManager.default.removeItem(atPath: directory) } }
    let wallet = try Wallet(
      home: WalletHome(directory: directory), documentTitles: MdocDisplay.titles)
    let now = Date()
    let narrator = Narrator(console: console)
    let origin = try WebOrigin("https://shop.example")

    let pki = try makePKI(now: now, narrator)
    let mdocs = try issueMdocs(pki, now: now, narrator)
    try await trustAndImport(mdocs, pki, into: wallet, directory: directory, narrator)
    try await runAnnexCExchange(pki, origin: origin, wallet: wallet, narrator)
    try await issueSDJWTPID(pki, now: now, into: wallet, narrator)
    try await runOpenID4VPExchange(pki, origin: origin, wallet: wallet, narrator)
    try await showActivity(wallet, narrator)
    try await runIssuance(pki, origin: origin, directory: directory, narrator)
    try await runInPerson(pki, wallet: wallet, narrator)
    console.out("\nEvery check passed.")
    if args.flag("keep") { console.out("wallet home kept at \(directory)") }
  }

  /// Prints the demo's numbered steps and their indented details.
  struct Narrator {
    let console: Console
    func step(_ text: String) { console.out("\n== \(text)") }
    func say(_ text: String) { console.out("   \(text)") }
  }

  /// The development PKI: an IACA and its document signer, a reader CA and its reader.
  struct PKI {
    let from: Date
    let until: Date
    let iacaKey: ECPrivateKey
    let iaca: Certificate
    let dsKey: ECPrivateKey
    let ds: Certificate
    let readerRoot: Certificate
    let readerKey: ECPrivateKey
    let reader: Certificate
  }

  /// The issued mdocs and their device keys.
  struct Mdocs {
    let mdl: IssuerSigned
    let mdlKey: ECPrivateKey
    let pid: IssuerSigned
    let pidKey: ECPrivateKey
  }

  /// Step 1: a development PKI valid from a day before `now` for a year.
  static func makePKI(now: Date, _ narrator: Narrator) throws -> PKI {
    let (step, say) = (narrator.step, narrator.say)
    step("1. A development PKI")
    let from = now.addingTimeInterval(-86_400)
    let until = now.addingTimeInterval(86_400 * 365)
    let issuer = try DevelopmentIssuer(name: "Demo", from: from, until: until)
    let (iacaKey, iaca, dsKey, ds) = (issuer.iacaKey, issuer.iaca, issuer.dsKey, issuer.ds)
    let readerRootKey = try ECPrivateKey(curve: .p256)
    let readerRoot = try CertificateBuilder.readerRoot(
      commonName: "Demo Reader CA", organization: "Verifier Trust Scheme",
      publicKey: readerRootKey.publicKey, notBefore: from, notAfter: until
    ).selfSigned(signer: readerRootKey)
    let readerKey = try ECPrivateKey(curve: .p256)
    let reader = try CertificateBuilder.reader(
      commonName: "Demo Bar & Grill", organization: "Demo Bar & Grill",
      publicKey: readerKey.publicKey, notBefore: from, notAfter: until
    ).issued(by: readerRoot, signer: readerRootKey)
    say("IACA \(iaca.subject) -> document signer \(ds.subject)")
    say("reader CA \(readerRoot.subject) -> reader \(reader.subject)")

    return PKI(
      from: from, until: until, iacaKey: iacaKey, iaca: iaca, dsKey: dsKey, ds: ds,
      readerRoot: readerRoot, readerKey: readerKey, reader: reader)
  }

  /// Step 2: an mDL and a PID, each bound to a new device key.
  static func issueMdocs(_ pki: PKI, now: Date, _ narrator: Narrator) throws -> Mdocs {
    let (step, say) = (narrator.step, narrator.say)
    let (from, dsKey, ds) = (pki.from, pki.dsKey, pki.ds)
    step("2. Issue an mDL and a PID, each bound to a new device key")
    let issuer = MdocIssuer(signer: dsKey, certificateChain: [ds])
    let validity = ValidityInfo(
      signed: now, validFrom: from, validUntil: now.addingTimeInterval(86_400 * 90))
    let mdlKey = try ECPrivateKey(curve: .p256)
    let mdl = try issuer.issue(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        (
          "org.iso.18013.5.1",
          [
            ("family_name", "Mustermann"), ("given_name", "Erika"),
            ("birth_date", .fullDate(try FullDate("1971-09-01"))),
            ("age_over_18", true), ("age_over_21", true), ("document_number", "D1234567"),
            ("portrait", .byteString([UInt8](repeating: 0xAB, count: 4096))),
          ]
        )
      ], deviceKey: mdlKey.publicKey, validity: validity, decoyDigests: 2)
    let pidKey = try ECPrivateKey(curve: .p256)
    let pid = try issuer.issue(
      docType: "eu.europa.ec.eudi.pid.1",
      nameSpaces: [
        (
          "eu.europa.ec.eudi.pid.1",
          [
            ("family_name", "Mustermann"), ("given_name", "Erika"), ("nationality", ["DE"]),
            ("age_over_18", true),
          ]
        )
      ], deviceKey: pidKey.publicKey, validity: validity)
    say("mDL: 7 elements, \(mdl.bytes.count) bytes; PID: 4 elements, \(pid.bytes.count) bytes")

    return Mdocs(mdl: mdl, mdlKey: mdlKey, pid: pid, pidKey: pidKey)
  }

  /// Step 3: the wallet trusts the IACA and the reader CA, then imports both mdocs.
  static func trustAndImport(
    _ mdocs: Mdocs, _ pki: PKI, into wallet: Wallet, directory: String, _ narrator: Narrator
  ) async throws {
    let (step, say) = (narrator.step, narrator.say)
    let (iaca, readerRoot) = (pki.iaca, pki.readerRoot)
    let (mdl, mdlKey, pid, pidKey) = (mdocs.mdl, mdocs.mdlKey, mdocs.pid, mdocs.pidKey)
    step(
      "3. The wallet trusts the IACA and the reader CA, then imports both (each is verified first)")
    _ = try await wallet.addTrustAnchor(iaca, role: .issuer)
    _ = try await wallet.addTrustAnchor(readerRoot, role: .reader)
    let mdlID = try await wallet.importMdoc(mdl.bytes, deviceKey: mdlKey, id: "mdl").id
    let pidID = try await wallet.importMdoc(pid.bytes, deviceKey: pidKey, id: "pid").id
    say("imported \(mdlID) and \(pidID) into \(directory)")

  }

  /// Steps 4 to 8: an Annex C request with reader authentication, the wallet's answer, its
  /// verification, and the refusal of the same response replayed to another origin.
  static func runAnnexCExchange(
    _ pki: PKI, origin: WebOrigin, wallet: Wallet, _ narrator: Narrator
  ) async throws {
    let (step, say) = (narrator.step, narrator.say)
    let (iaca, readerKey, reader) = (pki.iaca, pki.readerKey, pki.reader)
    step(
      "4. A verifier at https://shop.example asks for age_over_21 and a portrait (mDL) and the given name (PID)"
    )
    let state = try AnnexCVerifier.makeRequest(
      itemsRequests: annexCItemsRequests, origin: origin,
      reader: .init(signer: readerKey, chain: [reader]))
    let page = mdocRequestPage(state.request.data)
    say("navigator.credentials.get({digital: \(page.serialized().prefix(90))...})")

    step("5. The wallet resolves the request for the origin the platform reported")
    let request = try await wallet.resolve(
      RequestEnvelope(json: page), origin: origin.serialized,
      policy: WalletPolicy(requireAuthenticatedRequester: true))
    let consent = try request.proposedConsent()
    for line in request.consentScreen(for: consent).split(separator: "\n") { say(String(line)) }

    step(
      "6. The user agrees; the wallet signs for this session and seals the response to the verifier"
    )
    let response = try await wallet.respond(to: request, consent: consent)
    let encrypted = response.data["response"]?.string ?? ""
    say(
      "{\"protocol\": \"\(response.protocolIdentifier)\", \"data\": {\"response\": \"\(encrypted.prefix(48))...\"}} (\(encrypted.count) characters)"
    )

    step("7. The verifier opens and verifies the response")
    let result = try AnnexCVerifier.verify(
      responseData: response.data, state: state, issuerTrustAnchors: [iaca], now: Date())
    for line in VerifierOutput.text(result) { say(line) }

    step("8. The same response replayed to another origin does not open")
    let other = AnnexCVerifier.State(
      origin: try WebOrigin("https://evil.example"), request: state.request,
      recipientPrivateKey: state.recipientPrivateKey)
    do {
      _ = try AnnexCVerifier.verify(
        responseData: response.data, state: other, issuerTrustAnchors: [iaca], now: Date())
      throw CommandFailure("a response for https://shop.example opened for https://evil.example")
    } catch let error as VerifierError {
      say("refused as expected: \(error.reason)")
    }

  }

  /// `navigator.credentials.get`'s `digital` member for one org-iso-mdoc request.
  static func mdocRequestPage(_ data: JSONValue) -> JSONValue {
    .object([
      (
        "requests",
        .array([.object([("protocol", .string("org-iso-mdoc")), ("data", data)])])
      )
    ])
  }

  /// Step 4's doc requests: age_over_21 and a portrait from the mDL, the given name (to be
  /// retained) from the PID.
  private static let annexCItemsRequests = [
    ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        (
          "org.iso.18013.5.1",
          [
            .init("age_over_21", intentToRetain: false),
            .init("portrait", intentToRetain: false),
          ]
        )
      ]),
    ItemsRequest(
      docType: "eu.europa.ec.eudi.pid.1",
      nameSpaces: [("eu.europa.ec.eudi.pid.1", [.init("given_name", intentToRetain: true)])]),
  ]

  /// Step 9: an SD-JWT VC PID with selectively disclosable claims, bound to a device key and
  /// imported.
  static func issueSDJWTPID(_ pki: PKI, now: Date, into wallet: Wallet, _ narrator: Narrator)
    async throws
  {
    let (step, say) = (narrator.step, narrator.say)
    let (from, until, iaca, iacaKey) = (pki.from, pki.until, pki.iaca, pki.iacaKey)
    step(
      "9. An SD-JWT VC PID, issued with selectively disclosable claims and bound to a device key")
    let sdJWTIssuerKey = try ECPrivateKey(curve: .p256)
    let sdJWTIssuerCert = try CertificateBuilder(
      subject: DistinguishedName(
        commonName: "Demo PID Issuer", organization: "Utopia Registry", country: "UT"),
      publicKey: sdJWTIssuerKey.publicKey, notBefore: from, notAfter: until,
      extensions: [
        .keyUsage(.digitalSignature),
        // SD-JWT VC §3.5: `iss` is tied to the x5c leaf, here by its DNS name and URI.
        .subjectAlternativeNames([
          .dnsName("issuer.utopia.example"), .uri("https://issuer.utopia.example"),
        ]),
      ]
    ).issued(by: iaca, signer: iacaKey)
    let holderKey = try ECPrivateKey(curve: .p256)
    let claims: JSONValue = .object([
      ("given_name", "Erika"), ("family_name", "Mustermann"), ("birthdate", "1971-09-01"),
      ("age_over_18", true),
      ("address", .object([("locality", "Berlin"), ("country", "DE")])),
    ])
    let pidSDJWT = try SDJWTIssuer.issue(
      claims: claims,
      selectivelyDisclosable: [
        "given_name", "family_name", "birthdate", "age_over_18", "address.locality", "address",
      ],
      decoys: 2, holderKey: holderKey.publicKey, vct: "urn:eudi:pid:1",
      issuer: "https://issuer.utopia.example", issuedAt: now,
      expiresAt: now.addingTimeInterval(86_400 * 90), signer: sdJWTIssuerKey,
      x5c: [sdJWTIssuerCert], random: SecureRandom())
    let sdJWTID = try await wallet.importSDJWT(
      pidSDJWT.serialized, deviceKey: holderKey, id: "pid-sd-jwt"
    ).id
    say(
      "imported \(sdJWTID): \(pidSDJWT.disclosures.count) disclosures, issuer chain to \(iaca.subject)"
    )

  }

  /// Steps 10 to 12: a signed OpenID4VP request with an encrypted response, the wallet's
  /// presentation, and the verifier's checks.
  static func runOpenID4VPExchange(
    _ pki: PKI, origin: WebOrigin, wallet: Wallet, _ narrator: Narrator
  ) async throws {
    let (step, say) = (narrator.step, narrator.say)
    let (from, until, iaca) = (pki.from, pki.until, pki.iaca)
    step(
      "10. The verifier signs an OpenID4VP request (x509_san_dns, expected_origins) and asks for an encrypted response"
    )
    let (verifierRoot, verifierKey, verifierCert) = try DevCommand.openID4VPVerifierPKI(
      caName: "Demo Verifier CA", dnsName: "shop.example", organization: "Demo Shop", from: from,
      until: until)
    _ = try await wallet.addTrustAnchor(verifierRoot, role: .verifier)
    let dcql = try JSONValue(
      parsing:
        #"{"credentials": [{"id": "pid", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:eudi:pid:1"]}, "claims": [{"path": ["given_name"]}, {"path": ["age_over_18"]}]}]}"#
    )
    let oid4vp = try VerifierRequest(
      dcqlQuery: dcql, origin: origin.serialized, responseMode: .dcAPIJWT,
      signing: .signed(
        .x509SANDNS(dnsName: "shop.example", certificateChain: [verifierCert], signer: verifierKey)),
      expectedOrigins: [origin.serialized])
    say(
      "client_id x509_san_dns:shop.example, response_mode dc_api.jwt, DCQL: given_name and age_over_18 from urn:eudi:pid:1"
    )

    step(
      "11. The wallet checks the request signature, the verifier chain and expected_origins, then presents"
    )
    let oidRequest = try await wallet.resolve(
      RequestEnvelope(requests: [
        ProtocolRequest(protocolIdentifier: oid4vp.protocolID.rawValue, data: oid4vp.data)
      ]),
      origin: origin.serialized)
    let oidConsent = try oidRequest.proposedConsent()
    for line in oidRequest.consentScreen(for: oidConsent).split(separator: "\n") {
      say(String(line))
    }
    let oidResponse = try await wallet.respond(to: oidRequest, consent: oidConsent)
    say(
      "response: {\"response\": JWE} encrypted to the verifier's key (\(oidResponse.data["response"]?.string?.count ?? 0) characters)"
    )

    step(
      "12. The verifier decrypts and verifies: issuer signature, disclosures, key binding (aud origin:..., nonce, sd_hash)"
    )
    let verified = try oid4vp.state.verifyResponse(
      oidResponse.data, sdJWTIssuerAnchors: [iaca], mdocIssuerAnchors: [iaca], now: Date())
    for line in verifiedLines(verified) { say(line) }

  }

  /// Step 12's report: each verified credential's claims by query id, then every check passed.
  private static func verifiedLines(_ verified: VerifiedAuthorizationResponse) -> [String] {
    var lines: [String] = []
    for (queryID, credentials) in verified.credentials.sorted(by: { $0.key < $1.key }) {
      for credential in credentials {
        lines.append(
          "\(queryID): "
            + credential.claims.map {
              "\(ClaimName.of($0.path, format: credential.format)) = \($0.value.serialized())"
            }.joined(separator: ", "))
      }
    }
    for check in verified.report.checks {
      lines.append("ok  \(VerificationCheckText.sentence(check))")
    }
    return lines
  }

  /// Step 13: the wallet's activity log.
  static func showActivity(_ wallet: Wallet, _ narrator: Narrator) async throws {
    let (step, say) = (narrator.step, narrator.say)
    step("13. The activity log")
    for record in try await wallet.activity() {
      say(
        "\(record.outcome.rawValue) to \(record.origin ?? "-") (\(record.relyingParty ?? "-")): \(record.sharedItems.joined(separator: ", "))"
      )
    }
  }
}
