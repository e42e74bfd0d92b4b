import DCCBOR
import DCCOSE
import DCCrypto
import DCMdoc
import DCStatusList
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// The mdoc MSO `status` the issuer writes (StatusList's referenced token in DCMdoc's
/// `MobileSecurityObject`), read back as the same reference (issue 27: from DCStatusListTests,
/// which does not import DCMdoc).
@Suite struct MdocStatusReferenceTests {
  @Test func mdocStatusInTheMSORoundTrips() throws {
    let pki = try TestPKI()
    let reference = StatusReference(
      index: 7, uri: "https://issuer.example/statuslists/mdoc",
      certificate: pki.documentSigner.derBytes)
    let deviceKey = try ECPrivateKey(curve: .p256)
    let mso = MobileSecurityObject(
      digestAlgorithm: .sha256, valueDigests: [],
      deviceKey: COSEKey(publicKey: deviceKey.publicKey), docType: "org.iso.18013.5.1.mDL",
      validityInfo: ValidityInfo(
        signed: pki.clock, validFrom: pki.clock, validUntil: pki.clock.addingTimeInterval(86_400)),
      status: reference.msoStatus)
    let read = try MobileSecurityObject(encoded: EncodedCBOR(bytes: mso.encoded.bytes))
    #expect(read.encoded.bytes == mso.encoded.bytes)
    #expect(try ReferencedStatus.mdoc(status: try #require(read.status)) == .statusList(reference))
  }
}
