import CryptoPrimitives
import Foundation
import X509Certificates

/// A development mdoc issuer: an IACA and a document signer it issued (ISO 18013-5 Annex B
/// profiles), with their keys. `dcwallet demo` and `dcwallet dev files` both start from one.
struct DevelopmentIssuer {
  let iacaKey: ECPrivateKey
  let iaca: Certificate
  let dsKey: ECPrivateKey
  let ds: Certificate

  /// Certificates named "`name` IACA" and "`name` Document Signer", valid from `from` to `until`.
  init(name: String, from: Date, until: Date) throws {
    iacaKey = try ECPrivateKey(curve: .p256)
    iaca = try CertificateBuilder.iaca(
      commonName: "\(name) IACA", country: "UT", organization: "Utopia DMV",
      publicKey: iacaKey.publicKey, notBefore: from, notAfter: until
    ).selfSigned(signer: iacaKey)
    dsKey = try ECPrivateKey(curve: .p256)
    ds = try CertificateBuilder.documentSigner(
      commonName: "\(name) Document Signer", country: "UT", organization: "Utopia DMV",
      publicKey: dsKey.publicKey, notBefore: from, notAfter: until
    ).issued(by: iaca, signer: iacaKey)
  }
}
