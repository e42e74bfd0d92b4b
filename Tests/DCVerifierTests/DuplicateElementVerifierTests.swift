import DCAPI
import DCCBOR
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCVerifier
import DCWalletTestSupport
import Foundation
import Testing

/// Issue 10 §7.4: the Annex C verifier refuses a document whose namespace repeats an element
/// identifier, although every item's digest is in the MSO and the device signature verifies.
@Suite("verifier refuses duplicate element identifiers")
struct DuplicateElementVerifierTests {
  @Test("A hostile wallet's response repeating family_name is refused")
  func refused() throws {
    let pki = try TestPKI()
    let device = try ECPrivateKey(curve: .p256)
    let origin = try WebOrigin("https://verifier.example")
    let issuer = MdocIssuer(signer: pki.dsKey, certificateChain: [pki.documentSigner])
    func mdoc(_ elements: [(identifier: String, value: CBOR)]) throws -> IssuerSigned {
      try issuer.issue(
        docType: "org.iso.18013.5.1.mDL", nameSpaces: [("org.iso.18013.5.1", elements)],
        deviceKey: device.publicKey,
        validity: ValidityInfo(
          signed: pki.clock, validFrom: pki.clock.addingTimeInterval(-3600),
          validUntil: pki.clock.addingTimeInterval(86_400)))
    }
    let state = try AnnexCVerifier.makeRequest(
      itemsRequests: [
        ItemsRequest(
          docType: "org.iso.18013.5.1.mDL",
          nameSpaces: [("org.iso.18013.5.1", [.init("family_name", intentToRetain: false)])])
      ],
      origin: origin)
    let transcript = state.request.sessionTranscript(origin: origin)
    func seal(_ issued: IssuerSigned) throws -> JSONValue {
      let document = try Document.present(
        issued, disclosing: ["org.iso.18013.5.1": ["family_name"]], sessionTranscript: transcript,
        deviceKey: device)
      return try EncryptedResponse.seal(
        DeviceResponse(documents: [document]),
        to: state.request.encryptionInfo.recipientPublicKey, sessionTranscript: transcript
      ).data
    }
    // The same flow with one family_name verifies, so the refusal below is the duplicate's.
    let single = try AnnexCVerifier.verify(
      responseData: try seal(try mdoc([("family_name", "Mustermann")])), state: state,
      issuerTrustAnchors: [pki.iaca], now: TestPKI.now)
    #expect(single.documents[0].elements.map(\.identifier) == ["family_name"])
    let twice = try mdoc([("family_name", "Mustermann"), ("family_name", "Musterfrau")])
    #expect {
      try AnnexCVerifier.verify(
        responseData: try seal(twice), state: state, issuerTrustAnchors: [pki.iaca],
        now: TestPKI.now)
    } throws: { error in
      guard let error = error as? VerifierError else { return false }
      return error.code == .verificationFailed && error.reason.contains("more than once")
    }
  }
}
