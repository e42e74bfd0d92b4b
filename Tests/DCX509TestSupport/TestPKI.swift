// The development PKI the tests share, from the status lists up (issue 27: the certificates need
// no mdoc; DCWalletTestSupport adds the issued mdocs).
public import DCCrypto
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
}
