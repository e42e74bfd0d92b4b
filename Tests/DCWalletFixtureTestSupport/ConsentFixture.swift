import DCAPI
package import DCCrypto
import DCJOSE
package import DCJSON
import DCMdoc
import DCOpenID4VP
package import DCSDJWT
package import DCWallet
package import DCWalletTestSupport
package import DCX509
package import Foundation
package import Testing

/// A wallet at a pinned clock holding an SD-JWT PID, an mdoc PID and two mDLs, a trusted
/// verifier chain and an untrusted one, for consent, trust and validity tests. The requests a
/// verifier makes with those chains (`request`, `signer`, `strangerSigner`) are an extension in
/// DCEndToEndTests.
package struct ConsentFixture {
  package static let origin = "https://verifier.example"
  package static let pidType = "urn:eudi:pid:1"

  package let dir: TemporaryDirectory
  package let pki: TestPKI
  package let verifierRoot: Certificate
  package let verifierKey: ECPrivateKey
  package let verifierCertificate: Certificate
  package let strangerKey: ECPrivateKey
  package let strangerCertificate: Certificate
  package let sdJWTIssuer: Certificate
  package let sdJWTIssuerKey: ECPrivateKey

  package var now: Date { pki.clock }

  /// Credentials imported: `pid-sdjwt`, `pid-mdoc`, `mdl`, `mdl-2`.
  package init() async throws {
    dir = try TemporaryDirectory()
    pki = try TestPKI()
    let from = pki.clock.addingTimeInterval(-86_400)
    let until = pki.clock.addingTimeInterval(86_400 * 365)
    let rootKey = try ECPrivateKey(curve: .p256)
    verifierRoot = try CertificateBuilder.readerRoot(
      commonName: "Verifier Root", publicKey: rootKey.publicKey, notBefore: from, notAfter: until
    ).selfSigned(signer: rootKey)
    verifierKey = try ECPrivateKey(curve: .p256)
    verifierCertificate = try CertificateBuilder.openID4VPVerifier(
      dnsName: "verifier.example", publicKey: verifierKey.publicKey, notBefore: from,
      notAfter: until
    ).issued(by: verifierRoot, signer: rootKey)
    let strangerRootKey = try ECPrivateKey(curve: .p256)
    let strangerRoot = try CertificateBuilder.readerRoot(
      commonName: "Stranger Root", publicKey: strangerRootKey.publicKey, notBefore: from,
      notAfter: until
    ).selfSigned(signer: strangerRootKey)
    strangerKey = try ECPrivateKey(curve: .p256)
    strangerCertificate = try CertificateBuilder.openID4VPVerifier(
      dnsName: "verifier.example", publicKey: strangerKey.publicKey, notBefore: from,
      notAfter: until
    ).issued(by: strangerRoot, signer: strangerRootKey)
    sdJWTIssuerKey = try ECPrivateKey(curve: .p256)
    sdJWTIssuer = try CertificateBuilder(
      subject: DistinguishedName(commonName: "Test PID Issuer", country: "UT"),
      publicKey: sdJWTIssuerKey.publicKey, notBefore: from, notAfter: until,
      // SD-JWT VC: the x5c leaf names the host of `iss`.
      extensions: [
        .keyUsage(.digitalSignature), .subjectAlternativeNames([.dnsName("issuer.example")]),
      ]
    ).issued(by: pki.iaca, signer: pki.iacaKey)

    let wallet = try self.wallet()
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    _ = try await wallet.addTrustAnchor(verifierRoot, role: .verifier)
    _ = try await wallet.addTrustAnchor(pki.readerRoot, role: .reader)
    let holder = try ECPrivateKey(curve: .p256)
    _ = try await wallet.importSDJWT(
      try issueSDJWT(holder: holder, expiresAt: now.addingTimeInterval(86_400 * 30)).serialized,
      deviceKey: holder, id: "pid-sdjwt")
    let pidKey = try ECPrivateKey(curve: .p256)
    _ = try await wallet.importMdoc(
      try pki.issuePID(deviceKey: pidKey.publicKey).bytes, deviceKey: pidKey, id: "pid-mdoc")
    for id in ["mdl", "mdl-2"] {
      let key = try ECPrivateKey(curve: .p256)
      _ = try await wallet.importMdoc(
        try pki.issue(deviceKey: key.publicKey).bytes, deviceKey: key, id: id)
    }
  }

  package func issueSDJWT(holder: ECPrivateKey, expiresAt: Date, notBefore: Date? = nil) throws
    -> SDJWT
  {
    try SDJWTIssuer.issue(
      claims: [
        "given_name": "Erika", "family_name": "Mustermann", "age_over_18": true,
      ],
      selectivelyDisclosable: ["given_name", "family_name", "age_over_18"],
      holderKey: holder.publicKey, vct: Self.pidType, issuer: "https://issuer.example",
      issuedAt: now.addingTimeInterval(-3600), notBefore: notBefore, expiresAt: expiresAt,
      signer: sdJWTIssuerKey, x5c: [sdJWTIssuer], random: SecureRandom())
  }

  package func wallet(
    authenticator: any UserAuthenticator = ImplicitAuthenticator(), at clock: Date? = nil
  ) throws -> Wallet {
    let time = clock ?? now
    return try Wallet(
      home: WalletHome(directory: dir.path), authenticator: authenticator, clock: { time })
  }

  package static let pidSDJWTQuery: JSONValue = [
    "id": "pid_sdjwt", "format": "dc+sd-jwt", "meta": ["vct_values": [.string(pidType)]],
    "claims": [["path": ["given_name"]], ["path": ["age_over_18"]]],
  ]
  package static let pidMdocQuery: JSONValue = [
    "id": "pid_mdoc", "format": "mso_mdoc", "meta": ["doctype_value": "eu.europa.ec.eudi.pid.1"],
    "claims": [
      ["path": ["eu.europa.ec.eudi.pid.1", "given_name"]],
      ["path": ["eu.europa.ec.eudi.pid.1", "age_over_18"]],
    ],
  ]
  package static func mdlQuery(multiple: Bool = false) -> JSONValue {
    [
      "id": "mdl", "format": "mso_mdoc", "multiple": .bool(multiple),
      "meta": ["doctype_value": "org.iso.18013.5.1.mDL"],
      "claims": [["path": ["org.iso.18013.5.1", "age_over_18"]]],
    ]
  }
}

extension OpenID4VPConsent {
  /// The credentials by query id, for compact expectations.
  package var credentialIDs: [String: [String]] { selections.mapValues { $0.map(\.credentialID) } }
}

/// The OpenID4VP part of a resolved request.
package func openID4VP(_ request: PresentationRequest) throws -> OpenID4VPPresentation {
  guard case .openID4VP(let presentation) = request.kind else {
    throw WalletError(.refused, "not an OpenID4VP request")
  }
  return presentation
}

/// The OpenID4VP consent of a presentation consent.
package func openID4VP(_ consent: PresentationConsent) throws -> OpenID4VPConsent {
  guard case .openID4VP(let consent) = consent else {
    throw WalletError(.refused, "not an OpenID4VP consent")
  }
  return consent
}

/// The reason of the WalletError `body` throws, recording an issue when it throws none.
package func walletRefusal(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async -> String {
  do {
    try await body()
    Issue.record("expected a refusal", sourceLocation: sourceLocation)
    return ""
  } catch let error as WalletError {
    return error.reason
  } catch {
    Issue.record("expected a WalletError, got \(error)", sourceLocation: sourceLocation)
    return ""
  }
}
