import DCCrypto
import DCTrust
import DCX509
import Foundation

/// The registration files of `dcwallet dev files` (issue 29, ETSI TS 119 475 v1.2.1): a
/// development access-certificate CA (WRPAC provider) and registration-certificate provider
/// (WRPRC provider), both listed in the development LoTE; the development verifier's access
/// certificate under that CA, usable as its mdoc reader certificate and as its OpenID4VP
/// `x509_san_dns` request signer; and registration certificates (JWT `rc-wrp+jwt`) for the
/// verifier and for the development issuer.
enum DevRegistrationFiles {
  static let names = [
    "access-ca.pem", "access.pem", "access-key.pem", "registrar.pem", "registrar-key.pem",
    "registration.jwt", "issuer-registration.jwt",
  ]

  /// The verifier's semantic identifier (ETSI EN 319 412-1 §5.1.4: legal person, LEI scheme),
  /// in its access certificate's organizationIdentifier and the registration's `sub`.
  static let verifierIdentifier = "LEIXG-529900DEVSHOP00001"
  /// The development issuer's semantic identifier.
  static let issuerIdentifier = "LEIXG-529900DEVISSUER0001"
  /// The mDL claims the verifier is registered to ask for.
  static let registeredElements = ["family_name", "given_name", "age_over_18"]

  /// The two CAs, to list in the LoTE, and the files.
  struct Made {
    let accessCA: Certificate
    let registrar: Certificate
    let package: [(String, [UInt8])]
    let secret: [(String, [UInt8])]
  }

  static func files(verifierHost: String, now: Date, from: Date, until: Date) throws -> Made {
    let accessCAKey = try ECPrivateKey(curve: .p256)
    let accessCA = try CertificateBuilder.readerRoot(
      commonName: "Development Access Certificate CA", organization: "Development Trust Scheme",
      publicKey: accessCAKey.publicKey, notBefore: from, notAfter: until
    ).selfSigned(signer: accessCAKey)
    // ETSI TS 119 411-8: the access certificate names the relying party by its
    // organizationIdentifier; the reader EKU (ISO 18013-5 Annex B.1.7) and the dNSName
    // (OpenID4VP 1.0 §5.9.3 x509_san_dns) let one certificate serve both protocols.
    let accessKey = try ECPrivateKey(curve: .p256)
    let access = try CertificateBuilder(
      subject: RegistrationCertificateBuilder.accessCertificateSubject(
        organizationIdentifier: verifierIdentifier, commonName: "Development Shop"),
      publicKey: accessKey.publicKey, notBefore: from, notAfter: until,
      extensions: [
        .keyUsage(.digitalSignature), .extendedKeyUsage([.mdlReaderAuthentication]),
        .subjectAlternativeNames([.dnsName(verifierHost)]),
        .subjectKeyIdentifier(CertificateExtension.keyIdentifier(for: accessKey.publicKey)),
      ]
    ).issued(by: accessCA, signer: accessCAKey)
    let registrarKey = try ECPrivateKey(curve: .p256)
    let registrar = try CertificateBuilder(
      subject: DistinguishedName(
        commonName: "Development Registrar", organization: "Development Trust Scheme",
        country: "UT"),
      publicKey: registrarKey.publicKey, notBefore: from, notAfter: until,
      extensions: [.keyUsage(.digitalSignature)]
    ).selfSigned(signer: registrarKey)
    let verifier = try verifierRegistration(now: now).signedJWT(
      signer: registrarKey, chain: [registrar])
    let issuer = try issuerRegistration(now: now).signedJWT(
      signer: registrarKey, chain: [registrar])
    func text(_ string: String) -> [UInt8] { Array(string.utf8) }
    return Made(
      accessCA: accessCA, registrar: registrar,
      package: [
        ("access-ca.pem", text(accessCA.pemString)),
        ("access.pem", text(access.pemString)),
        ("registrar.pem", text(registrar.pemString)),
        ("registration.jwt", verifier + [0x0A]), ("issuer-registration.jwt", issuer + [0x0A]),
      ],
      secret: [
        ("access-key.pem", text(accessKey.pemRepresentation)),
        ("registrar-key.pem", text(registrarKey.pemRepresentation)),
      ])
  }

  /// ETSI TS 119 475 clause 5.2.4: the verifier registered for three mDL claims, with its
  /// purpose and privacy policy, valid for 180 days (GEN-5.2.4-08: at most 12 months).
  static func verifierRegistration(now: Date) -> RegistrationCertificateBuilder {
    var builder = RegistrationCertificateBuilder(
      subject: verifierIdentifier, name: "Development Shop",
      issuedAt: now.addingTimeInterval(-60), expiresAt: now.addingTimeInterval(86_400 * 180))
    builder.legalName = "Development Shop Ltd"
    builder.purpose = [(language: "en", value: "Age verification at the checkout")]
    builder.privacyPolicy = "https://shop.example/privacy"
    builder.credentials = [
      RegisteredCredential(
        format: "mso_mdoc", docType: "org.iso.18013.5.1.mDL",
        claims: registeredElements.map {
          RegistrationClaimPath([.key("org.iso.18013.5.1"), .key($0)])
        })
    ]
    return builder
  }

  /// The development issuer's registration: Table 8 `provides_attestations` names the mDL and
  /// the PID it issues.
  static func issuerRegistration(now: Date) -> RegistrationCertificateBuilder {
    var builder = RegistrationCertificateBuilder(
      subject: issuerIdentifier, name: "Development Issuer",
      issuedAt: now.addingTimeInterval(-60), expiresAt: now.addingTimeInterval(86_400 * 180))
    builder.legalName = "Development Issuer Agency"
    builder.purpose = [(language: "en", value: "Issuing development mDLs and PIDs")]
    builder.privacyPolicy = "https://issuer.example/privacy"
    // Annex A.2: the entitlement of a PID provider.
    builder.entitlements = ["https://uri.etsi.org/19475/Entitlement/PID_Provider"]
    builder.providedAttestations = [
      RegisteredCredential(format: "mso_mdoc", docType: "org.iso.18013.5.1.mDL", claims: nil),
      RegisteredCredential(format: "dc+sd-jwt", vctValues: ["urn:eudi:pid:1"], claims: nil),
    ]
    return builder
  }
}
