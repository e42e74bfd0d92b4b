// Shared fixtures for tests above the protocol modules: the development PKI (DCX509TestSupport)
// and the mdocs its document signer issues.
import DCCBOR
public import DCCrypto
public import DCMdoc
@_exported public import DCX509TestSupport
public import Foundation

extension TestPKI {
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
