import DCAPI
package import DCCrypto
import DCJOSE
package import DCJSON
package import DCMdoc
package import DCOpenID4VP
import DCQL
package import DCSDJWT
package import DCWalletTestSupport
package import DCX509
package import Foundation
package import Testing

/// A verifier, an SD-JWT PID issuer, an mDL issuer and a holder, all made fresh per test: what the
/// OpenID4VP tests and the verifier's tests share (issue 27). The verifier's side (its request
/// signer, `makeRequest`, `verify`) is an extension in DCVerifierTests.
package struct Fixture {
  package static let origin = "https://verifier.example"
  package static let dnsName = "verifier.example"
  package static let pidType = "urn:eudi:pid:1"
  package static let paymentType = "org.example.payment"

  package let pki: TestPKI
  package var now: Date { pki.clock }

  package let verifierRootKey: ECPrivateKey
  package let verifierRoot: Certificate
  package let verifierKey: ECPrivateKey
  package let verifierCertificate: Certificate
  /// A second verifier chain that is not trusted.
  package let rogueKey: ECPrivateKey
  package let rogueCertificate: Certificate

  package let pidRootKey: ECPrivateKey
  package let pidRoot: Certificate
  package let pidIssuerKey: ECPrivateKey
  package let pidIssuer: Certificate

  package let holderKey: ECPrivateKey
  package let deviceKey: ECPrivateKey
  package let pid: SDJWT
  package let mdl: IssuerSigned

  package init() throws {
    pki = try TestPKI()
    let from = pki.clock.addingTimeInterval(-86_400)
    let until = pki.clock.addingTimeInterval(86_400 * 365)
    verifierRootKey = try ECPrivateKey(curve: .p256)
    verifierRoot = try CertificateBuilder.readerRoot(
      commonName: "Test Verifier Root", publicKey: verifierRootKey.publicKey, notBefore: from,
      notAfter: until
    ).selfSigned(signer: verifierRootKey)
    verifierKey = try ECPrivateKey(curve: .p256)
    verifierCertificate = try CertificateBuilder.openID4VPVerifier(
      dnsName: Self.dnsName, publicKey: verifierKey.publicKey, notBefore: from, notAfter: until
    ).issued(by: verifierRoot, signer: verifierRootKey)
    let rogueRootKey = try ECPrivateKey(curve: .p256)
    let rogueRoot = try CertificateBuilder.readerRoot(
      commonName: "Rogue Root", publicKey: rogueRootKey.publicKey, notBefore: from,
      notAfter: until
    ).selfSigned(signer: rogueRootKey)
    rogueKey = try ECPrivateKey(curve: .p256)
    rogueCertificate = try CertificateBuilder.openID4VPVerifier(
      dnsName: Self.dnsName, publicKey: rogueKey.publicKey, notBefore: from, notAfter: until
    ).issued(by: rogueRoot, signer: rogueRootKey)

    pidRootKey = try ECPrivateKey(curve: .p256)
    pidRoot = try CertificateBuilder.iaca(
      commonName: "Test PID Root", country: "UT", publicKey: pidRootKey.publicKey,
      notBefore: from, notAfter: until
    ).selfSigned(signer: pidRootKey)
    pidIssuerKey = try ECPrivateKey(curve: .p256)
    // SD-JWT VC inline X.509: an end entity that signs and names the host of `iss`.
    pidIssuer = try CertificateBuilder(
      subject: DistinguishedName(commonName: "Test PID Issuer", country: "UT"),
      publicKey: pidIssuerKey.publicKey, notBefore: from, notAfter: until,
      extensions: [
        .keyUsage(.digitalSignature), .subjectAlternativeNames([.dnsName("pid.example")]),
        .subjectKeyIdentifier(CertificateExtension.keyIdentifier(for: pidIssuerKey.publicKey)),
      ]
    ).issued(by: pidRoot, signer: pidRootKey)

    holderKey = try ECPrivateKey(curve: .p256)
    deviceKey = try ECPrivateKey(curve: .p256)
    pid = try SDJWTIssuer.issue(
      claims: [
        "given_name": "Erika", "family_name": "Mustermann", "birthdate": "1964-08-12",
        "address": ["locality": "Berlin", "country": "DE"], "nationalities": ["DE"],
      ],
      selectivelyDisclosable: [
        "given_name", "family_name", "birthdate", "address", "address.locality",
        "address.country", "nationalities",
      ],
      decoys: 2, holderKey: holderKey.publicKey, vct: Self.pidType,
      issuer: "https://pid.example", issuedAt: pki.clock.addingTimeInterval(-3600),
      expiresAt: pki.clock.addingTimeInterval(86_400 * 30), signer: pidIssuerKey,
      x5c: [pidIssuer], random: SecureRandom())
    mdl = try pki.issue(deviceKey: deviceKey.publicKey)
  }

  package static let query: JSONValue = [
    "credentials": [
      [
        "id": "pid", "format": "dc+sd-jwt", "meta": ["vct_values": [.string(pidType)]],
        "claims": [
          ["path": ["given_name"]], ["path": ["family_name"]], ["path": ["address", "locality"]],
        ],
      ],
      [
        "id": "mdl", "format": "mso_mdoc", "meta": ["doctype_value": "org.iso.18013.5.1.mDL"],
        "claims": [
          ["path": ["org.iso.18013.5.1", "family_name"]],
          ["path": ["org.iso.18013.5.1", "age_over_18"]],
        ],
      ],
    ],
    "credential_sets": [
      ["options": [["pid"]]],
      ["options": [["mdl"]], "required": true],
    ],
  ]

  package func parse(
    protocol protocolID: OpenID4VPProtocol, data: JSONValue, origin: String = Fixture.origin,
    supportedTransactionDataTypes: Set<String> = [Fixture.paymentType]
  ) throws -> AuthorizationRequest {
    try AuthorizationRequest(
      protocol: protocolID, data: data, origin: try WebOrigin(origin),
      verifierTrustAnchors: [verifierRoot],
      now: now, supportedTransactionDataTypes: supportedTransactionDataTypes)
  }

  /// The wallet: evaluate the query over both credentials and present the default selection.
  package func respond(
    to request: AuthorizationRequest, origin: String = Fixture.origin,
    mdocDeviceKey: (any Signer)? = nil
  ) throws -> AuthorizationResponse {
    let pidCredential = try SDJWTCredential(id: "stored-pid", sdJWT: pid)
    let mdlCredential = MdocCredential(id: "stored-mdl", issuerSigned: mdl)
    let credentials: [any DCQLCredential] = [pidCredential, mdlCredential]
    let evaluation = request.dcqlQuery.evaluate(credentials)
    #expect(evaluation.isSatisfied)
    var presentations: [String: [CredentialPresentation]] = [:]
    for (id, candidates) in evaluation.defaultSelection() {
      for candidate in candidates {
        switch credentials[candidate.credentialIndex] {
        case let credential as SDJWTCredential:
          presentations[id, default: []].append(
            credential.presentation(disclosing: candidate.disclosed, holderKey: holderKey))
        case let credential as MdocCredential:
          presentations[id, default: []].append(
            credential.presentation(
              disclosing: candidate.disclosed, deviceKey: mdocDeviceKey ?? deviceKey))
        default:
          Issue.record("unexpected credential type")
        }
      }
    }
    return try request.respond(
      origin: try WebOrigin(origin), presentations: presentations, now: now)
  }
}

/// Runs `body` and returns the OpenID4VPError it throws, recording an issue when it does not.
package func openID4VPError(
  _ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
)
  -> OpenID4VPError?
{
  do {
    try body()
    Issue.record("expected an OpenID4VPError", sourceLocation: sourceLocation)
    return nil
  } catch let error as OpenID4VPError {
    return error
  } catch {
    Issue.record("expected an OpenID4VPError, got \(error)", sourceLocation: sourceLocation)
    return nil
  }
}
