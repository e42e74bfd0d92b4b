import DCAPI
import DCCrypto
import DCMdoc
import DCOrgIsoMdoc
import DCWallet
import DCWalletTestSupport
import Foundation
import Testing

/// A consent the wallet must refuse before anything is signed.
@Suite("Annex C consent refusals")
struct ConsentRefusalTests {
  /// ISO 18013-5 §8.3.2.1.2.3: an element the credential lacks cannot be shared; naming it is a
  /// consent for something that does not exist, not a consent for the rest.
  @Test("A consent naming a requested element the credential lacks is refused")
  func elementTheCredentialLacks() throws {
    let pki = try TestPKI()
    let device = try ECPrivateKey(curve: .p256)
    let mdl = StoredMdoc(id: "mdl", issuerSigned: try pki.issue(deviceKey: device.publicKey))
    let key = try ECPrivateKey(curve: .p256)
    let request = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: [
        DocRequest(
          itemsRequest: ItemsRequest(
            docType: "org.iso.18013.5.1.mDL",
            nameSpaces: [
              (
                "org.iso.18013.5.1",
                [
                  .init("family_name", intentToRetain: false),
                  .init("resident_city", intentToRetain: false),
                ]
              )
            ]))
      ]),
      encryptionInfo: EncryptionInfo(
        nonce: [UInt8](repeating: 3, count: 16), recipientPublicKey: key.publicKey))
    let presentation = try AnnexCPresentation.resolve(
      data: request.data, origin: try WebOrigin("https://verifier.example"), credentials: [mdl],
      readerTrustAnchors: [], now: pki.clock)
    // The baseline: the element the credential holds is shared.
    _ = try presentation.respond(
      consent: MdocConsent(documents: [
        .init(
          docRequestIndex: 0, credentialID: "mdl", elements: ["org.iso.18013.5.1": ["family_name"]])
      ]),
      deviceKey: { _ in device })
    var signed = false
    let error = #expect(throws: PresentationError.self) {
      try presentation.respond(
        consent: MdocConsent(documents: [
          .init(
            docRequestIndex: 0, credentialID: "mdl",
            elements: ["org.iso.18013.5.1": ["family_name", "resident_city"]])
        ]),
        deviceKey: { _ in
          signed = true
          return device
        })
    }
    #expect(error?.code == .consentViolation)
    #expect(error?.reason == "credential mdl does not hold org.iso.18013.5.1/resident_city")
    #expect(!signed, "a key was requested for a refused consent")
  }
}
