import DCCrypto
import DCX509
import Foundation

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

  /// A leaf for signing SD-JWT VCs as the credential issuer `issuer`, with a fresh key: issued by
  /// the IACA, end entity, keyUsage digitalSignature and `issuer` as its URI SAN, the binding
  /// an SD-JWT VC's `x5c` leaf must show for its `iss` (SD-JWT VC §3.5).
  func sdJWTIssuerIdentity(for issuer: String) throws -> (
    key: ECPrivateKey, certificate: Certificate
  ) {
    let key = try ECPrivateKey(curve: .p256)
    let certificate = try CertificateBuilder(
      subject: DistinguishedName(
        commonName: "dcwallet development SD-JWT VC Issuer",
        organization: "Utopia DMV", country: "UT"),
      publicKey: key.publicKey, notBefore: ds.notBefore, notAfter: ds.notAfter,
      extensions: [
        .keyUsage(.digitalSignature),
        .subjectAlternativeNames([.uri(issuer)]),
        .subjectKeyIdentifier(CertificateExtension.keyIdentifier(for: key.publicKey)),
      ]
    ).issued(by: iaca, signer: iacaKey)
    return (key, certificate)
  }
}
