import DCCrypto
import DCTrust
import DCX509
import DCX509TestSupport
import Foundation

/// A registration-certificate provider (root CA and signing certificate), an access CA with two
/// relying parties' access certificates, and the builder of a registration certificate.
struct RegistrationFixture {
  let pki: TestPKI
  let providerRootKey: ECPrivateKey
  let providerRoot: Certificate
  let providerKey: ECPrivateKey
  let provider: Certificate
  let accessRootKey: ECPrivateKey
  let accessRoot: Certificate
  let accessKey: ECPrivateKey
  let access: Certificate
  let otherAccess: Certificate

  static let relyingParty = "LEIXG-529900T8BM49AURSDO55"
  static let otherRelyingParty = "LEIXG-OTHER0000000000000"
  static let pid = "eu.europa.ec.eudi.pid.1"
  static let pidVCT = "urn:eudi:pid:1"

  var clock: Date { pki.clock }

  init() throws {
    pki = try TestPKI()
    let from = pki.clock.addingTimeInterval(-86_400 * 30)
    let until = pki.clock.addingTimeInterval(86_400 * 365)
    providerRootKey = try ECPrivateKey(curve: .p256)
    providerRoot = try CertificateBuilder.readerRoot(
      commonName: "Test Registrar CA", publicKey: providerRootKey.publicKey, notBefore: from,
      notAfter: until
    ).selfSigned(signer: providerRootKey)
    providerKey = try ECPrivateKey(curve: .p256)
    provider = try Self.leaf(
      DistinguishedName(commonName: "Test WRPRC Signer"), key: providerKey, from: from,
      until: until
    ).issued(by: providerRoot, signer: providerRootKey)
    accessRootKey = try ECPrivateKey(curve: .p256)
    accessRoot = try CertificateBuilder.readerRoot(
      commonName: "Test Access CA", publicKey: accessRootKey.publicKey, notBefore: from,
      notAfter: until
    ).selfSigned(signer: accessRootKey)
    accessKey = try ECPrivateKey(curve: .p256)
    access = try Self.leaf(
      RegistrationCertificateBuilder.accessCertificateSubject(
        organizationIdentifier: Self.relyingParty, commonName: "Example Shop"),
      key: accessKey, from: from, until: until
    ).issued(by: accessRoot, signer: accessRootKey)
    otherAccess = try Self.leaf(
      RegistrationCertificateBuilder.accessCertificateSubject(
        organizationIdentifier: Self.otherRelyingParty, commonName: "Other Shop"),
      key: try ECPrivateKey(curve: .p256), from: from, until: until
    ).issued(by: accessRoot, signer: accessRootKey)
  }

  static func leaf(_ subject: DistinguishedName, key: ECPrivateKey, from: Date, until: Date)
    -> CertificateBuilder
  {
    CertificateBuilder(
      subject: subject, publicKey: key.publicKey, notBefore: from, notAfter: until,
      extensions: [.keyUsage(.digitalSignature)])
  }

  /// Trusts the provider root for signing registration certificates.
  var sources: TrustSources {
    TrustSources(anchors: [
      TrustAnchor(
        id: "registrar", certificate: providerRoot, purposes: [.registrationCertificateProvider])
    ])
  }

  /// Registered: the PID mdoc's family and given name, the SD-JWT VC PID's family name and every
  /// nationality.
  func builder(subject: String = Self.relyingParty) -> RegistrationCertificateBuilder {
    var builder = RegistrationCertificateBuilder(
      subject: subject, name: "Example Shop", issuedAt: clock.addingTimeInterval(-3_600),
      expiresAt: clock.addingTimeInterval(86_400 * 180))
    builder.legalName = "Example Shop GmbH"
    builder.purpose = [("en", "Age verification at checkout")]
    builder.privacyPolicy = "https://shop.example/privacy"
    builder.credentials = [
      RegisteredCredential(
        format: "mso_mdoc", docType: Self.pid,
        claims: [
          RegistrationClaimPath([.key(Self.pid), .key("family_name")]),
          RegistrationClaimPath([.key(Self.pid), .key("given_name")]),
        ]),
      RegisteredCredential(
        format: "dc+sd-jwt", vctValues: [Self.pidVCT],
        claims: [
          RegistrationClaimPath([.key("family_name")]),
          RegistrationClaimPath([.key("nationalities"), .allElements]),
        ]),
    ]
    return builder
  }

  enum Form: CaseIterable { case jwt, cwt }

  func sign(
    _ builder: RegistrationCertificateBuilder, _ form: Form, key: ECPrivateKey? = nil,
    chain: [Certificate]? = nil
  ) throws -> [UInt8] {
    let chain = chain ?? [provider]
    switch form {
    case .jwt: return try builder.signedJWT(signer: key ?? providerKey, chain: chain)
    case .cwt: return try builder.signedCWT(signer: key ?? providerKey, chain: chain)
    }
  }
}
