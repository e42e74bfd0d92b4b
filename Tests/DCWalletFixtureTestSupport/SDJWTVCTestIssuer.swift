package import DCCrypto
import DCJSON
import DCSDJWT
package import DCX509
package import Foundation

/// An SD-JWT VC issuer: a root (the anchor the wallet may be configured with) and a leaf
/// (ImportRefusalTests.Issuer).
package struct SDJWTVCTestIssuer {
  package static let iss = "https://pid.example"
  package let rootKey: ECPrivateKey
  package let root: Certificate
  package let key: ECPrivateKey
  package let leaf: Certificate

  package init(name: String, clock: Date, rootKey: ECPrivateKey? = nil) throws {
    let from = clock.addingTimeInterval(-86_400)
    let until = clock.addingTimeInterval(86_400 * 365)
    self.rootKey = try rootKey ?? ECPrivateKey(curve: .p256)
    root = try CertificateBuilder.iaca(
      commonName: name, country: "UT", publicKey: self.rootKey.publicKey, notBefore: from,
      notAfter: until
    ).selfSigned(signer: self.rootKey)
    key = try ECPrivateKey(curve: .p256)
    var builder = CertificateBuilder.documentSigner(
      commonName: name + " Issuer", country: "UT", publicKey: key.publicKey, notBefore: from,
      notAfter: until)
    // SD-JWT VC §3.5: the leaf names the issuer `iss` (host and URI).
    builder.extensions.append(
      .subjectAlternativeNames([.dnsName("pid.example"), .uri(Self.iss)]))
    leaf = try builder.issued(by: root, signer: self.rootKey)
  }

  /// An SD-JWT VC bound to `holder`, signed by `signer` (the leaf key unless given) with `x5c`.
  package func issue(
    holder: ECPublicKey, clock: Date, signer: ECPrivateKey? = nil, x5c: [Certificate]? = nil
  ) throws -> String {
    try SDJWTIssuer.issue(
      claims: ["given_name": "Erika", "family_name": "Mustermann"],
      selectivelyDisclosable: ["given_name", "family_name"], holderKey: holder,
      vct: "urn:eudi:pid:1", issuer: Self.iss,
      issuedAt: clock.addingTimeInterval(-3600), expiresAt: clock.addingTimeInterval(86_400),
      signer: signer ?? key, x5c: x5c ?? [leaf], random: SecureRandom()
    ).serialized
  }
}
