// Shared fixtures for tests above the protocol modules: a development PKI and issued mdocs.
import DCCBOR
public import DCCrypto
public import DCMdoc
public import DCX509
public import Foundation

/// A development IACA, document signer and reader, made fresh for each test.
public struct TestPKI {
  public let iacaKey: ECPrivateKey
  public let iaca: Certificate
  public let dsKey: ECPrivateKey
  public let documentSigner: Certificate
  public let readerRootKey: ECPrivateKey
  public let readerRoot: Certificate
  public let readerKey: ECPrivateKey
  public let reader: Certificate
  public static let now = Date(timeIntervalSince1970: 1_780_000_000)

  /// The clock the fixtures were made for (certificates and mdocs are valid around it).
  public let clock: Date

  public init(now: Date = TestPKI.now) throws {
    clock = now
    let from = now.addingTimeInterval(-86_400 * 30)
    let until = now.addingTimeInterval(86_400 * 365)
    iacaKey = try ECPrivateKey(curve: .p256)
    iaca = try CertificateBuilder.iaca(
      commonName: "Test IACA", country: "UT", publicKey: iacaKey.publicKey, notBefore: from,
      notAfter: until
    ).selfSigned(signer: iacaKey)
    dsKey = try ECPrivateKey(curve: .p256)
    documentSigner = try CertificateBuilder.documentSigner(
      commonName: "Test DS", country: "UT", publicKey: dsKey.publicKey, notBefore: from,
      notAfter: until
    ).issued(by: iaca, signer: iacaKey)
    readerRootKey = try ECPrivateKey(curve: .p256)
    readerRoot = try CertificateBuilder.readerRoot(
      commonName: "Test Reader Root", publicKey: readerRootKey.publicKey, notBefore: from,
      notAfter: until
    ).selfSigned(signer: readerRootKey)
    readerKey = try ECPrivateKey(curve: .p256)
    reader = try CertificateBuilder.reader(
      commonName: "Test Reader", publicKey: readerKey.publicKey, notBefore: from, notAfter: until
    ).issued(by: readerRoot, signer: readerRootKey)
  }

  public func issue(
    docType: String = "org.iso.18013.5.1.mDL", deviceKey: ECPublicKey, validFrom: Date? = nil,
    validUntil: Date? = nil
  ) throws -> IssuerSigned {
    let issuer = MdocIssuer(signer: dsKey, certificateChain: [documentSigner])
    return try issuer.issue(
      docType: docType,
      nameSpaces: [
        (
          "org.iso.18013.5.1",
          [
            ("family_name", "Mustermann"), ("given_name", "Erika"),
            ("birth_date", .fullDate(try FullDate("1971-09-01"))),
            ("age_over_18", true), ("portrait", .byteString([UInt8](repeating: 0xAB, count: 2000))),
          ]
        )
      ],
      deviceKey: deviceKey,
      validity: ValidityInfo(
        signed: clock, validFrom: validFrom ?? clock.addingTimeInterval(-3600),
        validUntil: validUntil ?? clock.addingTimeInterval(86_400 * 90)),
      decoyDigests: 3)
  }

  /// A PID (EUDI `eu.europa.ec.eudi.pid.1`) issued by the same document signer.
  public func issuePID(deviceKey: ECPublicKey) throws -> IssuerSigned {
    let issuer = MdocIssuer(signer: dsKey, certificateChain: [documentSigner])
    return try issuer.issue(
      docType: "eu.europa.ec.eudi.pid.1",
      nameSpaces: [
        (
          "eu.europa.ec.eudi.pid.1",
          [
            ("family_name", "Mustermann"), ("given_name", "Erika"), ("age_over_18", true),
            ("nationality", ["DE"]),
          ]
        )
      ],
      deviceKey: deviceKey,
      validity: ValidityInfo(
        signed: clock, validFrom: clock.addingTimeInterval(-3600),
        validUntil: clock.addingTimeInterval(86_400 * 90)))
  }
}
