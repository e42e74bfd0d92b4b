import DCAPI
import DCCBOR
import DCCrypto
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCVerifier
import DCWallet
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// Issue 10 §4: captured Annex C exchanges the wallet answered, verified without a state (the
/// request as sent, the origin and the verifier's key): direct trust in a pinned document signer,
/// and an MSO valid for one day (issue 27: from DCVerifierTests' CapturedExchangeTests, as the
/// answers are the wallet's).
@Suite("Captured Annex C exchanges answered by the wallet")
struct CapturedExchangeEndToEndTests {
  /// An mdoc signed by a self-signed certificate with no document-signer profile, as test
  /// issuers and pinned signers often are, answered for a request sent to `origin`.
  struct PinnedExchange {
    let signer: Certificate
    let state: AnnexCVerifier.State
    let response: JSONValue

    init(signerValidUntil: Date = TestPKI.now.addingTimeInterval(86_400)) throws {
      let now = TestPKI.now
      let signerKey = try ECPrivateKey(curve: .p256)
      signer = try CertificateBuilder(
        subject: DistinguishedName(commonName: "Pinned Test Signer", country: "UT"),
        publicKey: signerKey.publicKey, notBefore: now.addingTimeInterval(-3600),
        notAfter: signerValidUntil
      ).selfSigned(signer: signerKey)
      let deviceKey = try ECPrivateKey(curve: .p256)
      let mdoc = try MdocIssuer(signer: signerKey, certificateChain: [signer]).issue(
        docType: "org.iso.18013.5.1.mDL",
        nameSpaces: [("org.iso.18013.5.1", [("age_over_18", true)])],
        deviceKey: deviceKey.publicKey,
        validity: ValidityInfo(
          signed: now, validFrom: now.addingTimeInterval(-60),
          validUntil: now.addingTimeInterval(86_400 * 30)))
      let request = try AnnexCVerifier.makeRequest(
        itemsRequests: [
          ItemsRequest(
            docType: "org.iso.18013.5.1.mDL",
            nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])])
        ], origin: try WebOrigin("https://verifier.example"))
      let presentation = try AnnexCPresentation.resolve(
        data: request.request.data, origin: try WebOrigin("https://verifier.example"),
        credentials: [StoredMdoc(id: "mdl", issuerSigned: mdoc)], readerTrustAnchors: [], now: now)
      response = try presentation.respond(
        consent: try presentation.proposedConsent(), deviceKey: { _ in deviceKey }
      ).data
      // The verifier kept nothing but the request it sent and its key.
      state = try AnnexCVerifier.State(
        sentRequest: request.request.data, origin: "https://verifier.example",
        recipientPrivateKey: request.recipientPrivateKey)
    }
  }

  @Test("An issuer anchor may be the document signer itself: direct trust, whatever its profile")
  func pinnedDocumentSigner() throws {
    let exchange = try PinnedExchange()
    let result = try AnnexCVerifier.verify(
      responseData: exchange.response, state: exchange.state, issuerTrustAnchors: [exchange.signer],
      now: TestPKI.now)
    #expect(result.documents.count == 1)
    #expect(result.documents[0].trustBasis == .pinnedDocumentSigner(exchange.signer))
    #expect(result.documents[0].elements.map(\.identifier) == ["age_over_18"])
    #expect(
      result.report.checks.contains {
        if case .documentIssuer(_, _, .pinnedDocumentSigner) = $0 { true } else { false }
      })
  }

  @Test("Without that certificate among the anchors the same signer is not trusted")
  func unpinnedSignerIsRefused() throws {
    let exchange = try PinnedExchange()
    let other = try TestPKI()
    for anchors in [[], [other.iaca], [other.documentSigner]] {
      #expect {
        try AnnexCVerifier.verify(
          responseData: exchange.response, state: exchange.state, issuerTrustAnchors: anchors,
          now: TestPKI.now)
      } throws: {
        let error = $0 as? VerifierError
        return error?.code == .verificationFailed
          && error?.reason.contains("is not trusted") == true
      }
    }
  }

  @Test("A pinned document signer must be within its validity period at the verification time")
  func pinnedSignerOutsideItsValidity() throws {
    let exchange = try PinnedExchange(signerValidUntil: TestPKI.now.addingTimeInterval(60))
    #expect {
      try AnnexCVerifier.verify(
        responseData: exchange.response, state: exchange.state,
        issuerTrustAnchors: [exchange.signer], now: TestPKI.now.addingTimeInterval(3600))
    } throws: {
      ($0 as? VerifierError)?.reason.contains("pinned document signer") == true
    }
  }

  @Test(
    "A capture with reader authentication and an MSO valid for one day verifies only at its time")
  func oneDayMSOCapture() throws {
    // Like a real Chrome/Android capture: readerAuth in the request, an HPKE response, and an
    // MSO valid for one day. Verified later, it has expired: the verification time decides.
    let captured = TestPKI.now
    let pki = try TestPKI(now: captured)
    let deviceKey = try ECPrivateKey(curve: .p256)
    let mdoc = try pki.issue(
      deviceKey: deviceKey.publicKey, validFrom: captured.addingTimeInterval(-3600),
      validUntil: captured.addingTimeInterval(86_400 - 3600))
    let origin = try WebOrigin("https://verifier.example")
    let request = try AnnexCVerifier.makeRequest(
      itemsRequests: [
        ItemsRequest(
          docType: "org.iso.18013.5.1.mDL",
          nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])])
      ], origin: origin, reader: .init(signer: pki.readerKey, chain: [pki.reader]))
    let presentation = try AnnexCPresentation.resolve(
      data: request.request.data, origin: origin,
      credentials: [StoredMdoc(id: "mdl", issuerSigned: mdoc)],
      readerTrustAnchors: [pki.readerRoot], now: captured)
    try presentation.requireTrustedReader()
    let response = try presentation.respond(
      consent: try presentation.proposedConsent(), deviceKey: { _ in deviceKey }
    ).data
    // The verifier kept only the request as sent (a JSON round trip) and its key.
    let sent = try JSONValue(parsing: request.request.data.serialized())
    let state = try AnnexCVerifier.State(
      sentRequest: sent, origin: "https://verifier.example",
      recipientPrivateKey: request.recipientPrivateKey)
    let result = try AnnexCVerifier.verify(
      responseData: response, state: state, issuerTrustAnchors: [pki.iaca],
      now: captured.addingTimeInterval(3600))
    #expect(result.documents.map(\.docType) == ["org.iso.18013.5.1.mDL"])
    #expect {
      try AnnexCVerifier.verify(
        responseData: response, state: state, issuerTrustAnchors: [pki.iaca],
        now: captured.addingTimeInterval(2 * 86_400))
    } throws: { ($0 as? VerifierError)?.code == .verificationFailed }
  }
}
