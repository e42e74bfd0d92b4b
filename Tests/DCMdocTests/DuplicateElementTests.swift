import DCCBOR
import DCCrypto
import DCMdoc
import DCWalletTestSupport
import Foundation
import Testing

/// Issue 10 §7.4: a namespace that repeats an element identifier is refused by verification,
/// even when every item has a valid digest in the MSO.
@Suite("mdoc duplicate element identifiers")
struct DuplicateElementTests {
  /// An mDL whose namespace holds `family_name` twice, each item digested and signed.
  static func duplicated(_ pki: TestPKI, deviceKey: ECPublicKey) throws -> IssuerSigned {
    let issuer = MdocIssuer(signer: pki.dsKey, certificateChain: [pki.documentSigner])
    return try issuer.issue(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        (
          "org.iso.18013.5.1",
          [("family_name", "Mustermann"), ("age_over_18", true), ("family_name", "Musterfrau")]
        )
      ],
      deviceKey: deviceKey,
      validity: ValidityInfo(
        signed: pki.clock, validFrom: pki.clock.addingTimeInterval(-3600),
        validUntil: pki.clock.addingTimeInterval(86_400)))
  }

  @Test("A repeated element identifier fails verification and the digest check")
  func refused() throws {
    let pki = try TestPKI()
    let device = try ECPrivateKey(curve: .p256)
    let mdoc = try IssuerSigned(bytes: try Self.duplicated(pki, deviceKey: device.publicKey).bytes)
    #expect {
      try mdoc.verify(trustAnchors: [pki.iaca], at: TestPKI.now)
    } throws: { error in
      guard let error = error as? MdocError else { return false }
      return error.code == .malformed && error.reason.contains("org.iso.18013.5.1/family_name")
    }
    let digests = #expect(throws: MdocError.self) { try mdoc.checkDigests() }
    #expect(digests?.code == .malformed)
    #expect(
      digests?.reason
        == "element org.iso.18013.5.1/family_name appears more than once in its namespace")
  }

  @Test("The same identifier in two namespaces is not a duplicate")
  func distinctNamespaces() throws {
    let pki = try TestPKI()
    let device = try ECPrivateKey(curve: .p256)
    let issuer = MdocIssuer(signer: pki.dsKey, certificateChain: [pki.documentSigner])
    let mdoc = try issuer.issue(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        ("org.iso.18013.5.1", [("family_name", "Mustermann")]),
        ("org.iso.18013.5.1.aamva", [("family_name", "Mustermann")]),
      ],
      deviceKey: device.publicKey,
      validity: ValidityInfo(
        signed: pki.clock, validFrom: pki.clock.addingTimeInterval(-3600),
        validUntil: pki.clock.addingTimeInterval(86_400)))
    let verification = try mdoc.verify(trustAnchors: [pki.iaca], at: TestPKI.now)
    #expect(verification.deviceKey == device.publicKey)
    #expect(verification.documentSigner == pki.documentSigner)
    // Both elements are kept, one per namespace, each under its own digest.
    #expect(
      mdoc.nameSpaces.map(\.nameSpace).sorted() == ["org.iso.18013.5.1", "org.iso.18013.5.1.aamva"])
    #expect(mdoc.nameSpaces.allSatisfy { $0.items.map(\.elementIdentifier) == ["family_name"] })
  }
}
