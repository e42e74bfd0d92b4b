import DCCrypto
import DCMdoc
import DCTrust
import DCX509
import Foundation

/// The trust files of `dcwallet dev files` (issue 29): a development list operator, a LoTE it
/// signs listing the development IACA as a PID provider, the reader and verifier CAs and the
/// WRPAC provider as access-certificate CAs and the registrar as a registration-certificate
/// provider (ETSI TS 119 602 service types), and an unlisted issuer's mDL and an unlisted reader, which a wallet
/// trusting only the list refuses.
enum DevTrustFiles {
  static let names = [
    "list-operator.pem", "list-operator-key.pem", "trusted-list.lote", "trusted-list.tsl",
    "trusted-list.vical", "unlisted-mdl.cbor",
    "unlisted-device.pem", "unlisted-reader.pem", "unlisted-reader-key.pem",
  ]

  /// The listed certificates.
  struct Listed {
    let iaca: Certificate
    let readerRoot: Certificate
    let verifierRoot: Certificate
    /// The access-certificate CA of the registration files.
    let accessCA: Certificate
    /// The registration-certificate provider.
    let registrar: Certificate
  }

  static func files(_ listed: Listed, now: Date, from: Date, until: Date) throws -> (
    package: [(String, [UInt8])], secret: [(String, [UInt8])]
  ) {
    let operatorKey = try ECPrivateKey(curve: .p256)
    let operatorCertificate = try CertificateBuilder(
      subject: DistinguishedName(
        commonName: "Development List Operator", organization: "Development Trust Scheme",
        country: "EU"),
      publicKey: operatorKey.publicKey, notBefore: from, notAfter: until,
      extensions: [.keyUsage(.digitalSignature)]
    ).selfSigned(signer: operatorKey)
    // ETSI TS 119 602: a LoTE issued now, due again in 30 days (a list past that is stale).
    let lote = try ETSIListContent(
      operatorName: "Development Trust Scheme", issued: now,
      nextUpdate: now.addingTimeInterval(86_400 * 30),
      entries: [
        .init(
          name: "Development PID Provider", serviceTypeURI: ETSIServiceTypeURI.pidIssuance,
          certificates: [listed.iaca]),
        .init(
          name: "Development Access CA",
          serviceTypeURI: ETSIServiceTypeURI.accessCertificateIssuance,
          certificates: [listed.readerRoot, listed.verifierRoot]),
        .init(
          name: "Development WRPAC Provider",
          serviceTypeURI: ETSIServiceTypeURI.accessCertificateIssuance,
          certificates: [listed.accessCA]),
        .init(
          name: "Development Registrar",
          serviceTypeURI: ETSIServiceTypeURI.registrationCertificateIssuance,
          certificates: [listed.registrar]),
      ]
    ).signedLoTE(signer: operatorKey, certificate: operatorCertificate)
    // ETSI TS 119 612: the same issuer as a public-sector EAA provider (granted), in XML with an
    // enveloped XAdES signature by the same operator.
    let tsl = try ETSIListContent(
      operatorName: "Development Trust Scheme", issued: now,
      nextUpdate: now.addingTimeInterval(86_400 * 30),
      entries: [
        .init(
          name: "Development PID Provider", serviceTypeURI: ETSIServiceTypeURI.tslPubEAA,
          certificates: [listed.iaca], status: ETSIServiceTypeURI.granted)
      ]
    ).signedTSL(kind: .tsl, key: operatorKey, certificate: operatorCertificate)
    let unlisted = try DevelopmentIssuer(name: "Unlisted", from: from, until: until)
    let deviceKey = try ECPrivateKey(curve: .p256)
    let mdl = try DevCommand.developmentMDL(
      signer: unlisted.dsKey, chain: [unlisted.ds], deviceKey: deviceKey, now: now, from: from)
    let readerRootKey = try ECPrivateKey(curve: .p256)
    let readerRoot = try CertificateBuilder.readerRoot(
      commonName: "Unlisted Reader CA", organization: "Nobody's Scheme",
      publicKey: readerRootKey.publicKey, notBefore: from, notAfter: until
    ).selfSigned(signer: readerRootKey)
    let readerKey = try ECPrivateKey(curve: .p256)
    let reader = try CertificateBuilder.reader(
      commonName: "Unlisted Shop", organization: "Unlisted Shop",
      publicKey: readerKey.publicKey, notBefore: from, notAfter: until
    ).issued(by: readerRoot, signer: readerRootKey)
    func text(_ string: String) -> [UInt8] { Array(string.utf8) }
    return (
      package: [
        ("list-operator.pem", text(operatorCertificate.pemString)), ("trusted-list.lote", lote),
        ("trusted-list.tsl", tsl),
        (
          "trusted-list.vical",
          try vical(
            listing: listed.iaca, key: operatorKey, certificate: operatorCertificate, now: now)
        ),
        ("unlisted-mdl.cbor", mdl.bytes),
        ("unlisted-reader.pem", text(reader.pemString)),
      ],
      secret: [
        ("list-operator-key.pem", text(operatorKey.pemRepresentation)),
        ("unlisted-device.pem", text(deviceKey.pemRepresentation)),
        ("unlisted-reader-key.pem", text(readerKey.pemRepresentation)),
      ]
    )
  }

  /// ISO/IEC 18013-5 Annex C.1.7.1: a VICAL by the same operator (COSE_Sign1, its certificate
  /// in x5chain) listing the IACA for the mDL docType only, issued now, due again in 30 days.
  static func vical(
    listing iaca: Certificate, key: ECPrivateKey, certificate: Certificate, now: Date
  )
    throws -> [UInt8]
  {
    try TrustedList.signingCertificateAuthorityList(
      kind: .vical, provider: "Development Trust Scheme", issued: now,
      nextUpdate: now.addingTimeInterval(86_400 * 30), issueID: 1,
      entities: [
        TrustedEntity(
          name: "Development IACA", serviceType: .mdocIssuingAuthority, certificates: [iaca],
          isGranted: true, docTypes: ["org.iso.18013.5.1.mDL"])
      ], signer: key, signerChain: [certificate])
  }
}
