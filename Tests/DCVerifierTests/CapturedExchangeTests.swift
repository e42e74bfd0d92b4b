import DCAPI
import DCCBOR
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCTestSupport
import DCVerifier
import DCWallet
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// Issue 10 §4: verifying a captured exchange without a state (the request as sent, the origin
/// and the verifier's key), exact origins, and direct trust in a pinned document signer.
@Suite("Captured Annex C exchanges")
struct CapturedExchangeTests {
  struct WaltID {
    let origin: String
    let data: JSONValue
    let response: JSONValue
    let key: ECPrivateKey
    let transcriptDigest: String
    let deviceResponseDigest: String

    init() throws {
      let vector = try #require(
        try JSONValue(parsing: VectorFile.bytes("annex-c-waltid-deterministic", in: .module))[
          "vector"])
      origin = try #require(vector["origin"]?.string)
      data = .object([
        ("deviceRequest", .string(try #require(vector["deviceRequestB64"]?.string))),
        ("encryptionInfo", .string(try #require(vector["encryptionInfoB64"]?.string))),
      ])
      response = .object([
        ("response", .string(try #require(vector["encryptedResponseB64"]?.string)))
      ])
      key = try ECPrivateKey(
        rawRepresentation: hexBytes(try #require(vector["recipientPrivateKeyHex"]?.string)),
        curve: .p256)
      transcriptDigest = try #require(
        vector["expected"]?["sessionTranscriptCborSha256Hex"]?.string)
      deviceResponseDigest = try #require(
        vector["expected"]?["deviceResponseCborSha256Hex"]?.string)
    }
  }

  static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

  @Test("walt.id capture: the transcript and the opened DeviceResponse match the published digests")
  func waltIDOpens() throws {
    let vector = try WaltID()
    let state = try AnnexCVerifier.State(
      sentRequest: vector.data, origin: vector.origin, recipientPrivateKey: vector.key)
    #expect(Self.hex(SHA256.hash(data: state.sessionTranscript.bytes)) == vector.transcriptDigest)
    let plaintext = try EncryptedResponse(data: vector.response).open(
      privateKey: vector.key, sessionTranscript: state.sessionTranscript)
    #expect(Self.hex(SHA256.hash(data: plaintext)) == vector.deviceResponseDigest)
  }

  @Test("walt.id capture: it opens, but a DeviceResponse without documents verifies nothing")
  func waltIDHoldsNoDocuments() throws {
    let vector = try WaltID()
    let state = try AnnexCVerifier.State(
      sentRequest: vector.data, origin: vector.origin, recipientPrivateKey: vector.key)
    #expect {
      try AnnexCVerifier.verify(
        responseData: vector.response, state: state, issuerTrustAnchors: [], now: Date())
    } throws: {
      let error = $0 as? VerifierError
      return error?.code == .verificationFailed
        && error?.reason
          == "the response opened and its DeviceResponse 1.0 has status 0 (OK), but it holds no "
          + "documents: nothing was presented for org.iso.18013.5.1.mDL"
    }
  }

  @Test("The origin is compared exactly: another spelling of the same origin does not open")
  func exactOrigin() throws {
    let vector = try WaltID()
    for spelling in [
      "https://Verifier.example", "https://verifier.example:443", "https://verifier.example/",
    ] {
      let state = try AnnexCVerifier.State(
        sentRequest: vector.data, origin: spelling, recipientPrivateKey: vector.key)
      #expect {
        try AnnexCVerifier.verify(
          responseData: vector.response, state: state, issuerTrustAnchors: [], now: Date())
      } throws: { ($0 as? VerifierError)?.code == .decryptionFailed }
    }
  }

  @Test("A recipient key other than the one the request's EncryptionInfo names is refused")
  func wrongRecipientKey() throws {
    let vector = try WaltID()
    #expect {
      try AnnexCVerifier.State(
        sentRequest: vector.data, origin: vector.origin,
        recipientPrivateKey: try ECPrivateKey(curve: .p256))
    } throws: {
      ($0 as? VerifierError)
        == VerifierError(
          .invalidEncryptionInfo,
          "the recipient key is not the one the request's EncryptionInfo names")
    }
  }

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
