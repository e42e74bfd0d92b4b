import DCAPI
import DCCBOR
import DCCOSE
import DCCrypto
import DCMdoc
import DCOrgIsoMdoc
import DCVerifier
import DCWalletTestSupport
import Foundation
import Testing

/// Responses the Annex C verifier must refuse although they decrypt: each is sealed to the
/// verifier's HPKE key under the right transcript, so only the check named by the test stops it.
@Suite("org-iso-mdoc verifier refusals")
struct AnnexCVerifierRefusalTests {
  let pki: TestPKI
  let deviceKey: ECPrivateKey
  let mdl: IssuerSigned
  let pid: IssuerSigned
  let state: AnnexCVerifier.State
  var transcript: SessionTranscript { state.sessionTranscript }

  init() throws {
    pki = try TestPKI()
    deviceKey = try ECPrivateKey(curve: .p256)
    mdl = try pki.issue(deviceKey: deviceKey.publicKey)
    pid = try pki.issuePID(deviceKey: deviceKey.publicKey)
    state = try AnnexCVerifier.makeRequest(
      itemsRequests: [
        ItemsRequest(
          docType: "org.iso.18013.5.1.mDL",
          nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])])
      ],
      origin: try WebOrigin("https://verifier.example"))
  }

  /// Seals a DeviceResponse to the verifier as a wallet would, and verifies it.
  func verify(_ response: DeviceResponse) throws -> AnnexCVerifier.Result {
    let sealed = try EncryptedResponse.seal(
      response, to: state.request.encryptionInfo.recipientPublicKey,
      sessionTranscript: transcript)
    return try AnnexCVerifier.verify(
      responseData: sealed.data, state: state, issuerTrustAnchors: [pki.iaca], now: pki.clock)
  }

  func refusal(_ response: DeviceResponse) -> VerifierError? {
    do {
      _ = try verify(response)
      Issue.record("the verifier accepted the response")
      return nil
    } catch let error as VerifierError {
      return error
    } catch {
      Issue.record("unexpected error \(error)")
      return nil
    }
  }

  func present(_ issuerSigned: IssuerSigned, key: any Signer) throws -> Document {
    try Document.present(
      issuerSigned, disclosing: ["org.iso.18013.5.1": ["age_over_18"]],
      sessionTranscript: transcript, deviceKey: key)
  }

  @Test("The honest response verifies (the baseline every refusal below departs from)")
  func baseline() throws {
    let result = try verify(DeviceResponse(documents: [try present(mdl, key: deviceKey)]))
    #expect(result.documents.map(\.docType) == ["org.iso.18013.5.1.mDL"])
    #expect(
      result.report.checks.contains(.documentDeviceSignature(docType: "org.iso.18013.5.1.mDL")))
  }

  /// ISO 18013-5 §9.1.3: whoever holds only an IssuerSigned cannot authenticate as the device.
  @Test("A response sealed by someone holding only the IssuerSigned is refused")
  func forgedDeviceAuthentication() throws {
    // Device-signed with another key (a thief with the issuer-signed data and no device key).
    let other = try present(mdl, key: try ECPrivateKey(curve: .p256))
    let error = refusal(DeviceResponse(documents: [other]))
    #expect(error?.code == .verificationFailed)
    #expect(error?.reason.contains("deviceSignature") == true, "\(String(describing: error))")

    // A garbage signature of the right length under the genuine protected header.
    let genuine = try present(mdl, key: deviceKey)
    guard case .signature(let sign1) = genuine.deviceSigned.deviceAuth else {
      Issue.record("expected a deviceSignature")
      return
    }
    let garbage = Document(
      docType: genuine.docType, issuerSigned: genuine.issuerSigned,
      deviceSigned: DeviceSigned(
        nameSpaces: genuine.deviceSigned.nameSpaces,
        deviceAuth: .signature(
          COSESign1(
            headers: sign1.headers, payload: nil,
            signature: [UInt8](repeating: 0x42, count: sign1.signature.count)))))
    let garbageError = refusal(DeviceResponse(documents: [garbage]))
    #expect(garbageError?.code == .verificationFailed)
    #expect(garbageError?.reason.contains("deviceSignature") == true)

    // A deviceMac, which the DC API verifier has no ephemeral key to check.
    let mac = Document(
      docType: genuine.docType, issuerSigned: genuine.issuerSigned,
      deviceSigned: DeviceSigned(
        nameSpaces: genuine.deviceSigned.nameSpaces,
        deviceAuth: .mac(
          COSEMac0.mac(payload: [], detached: true, key: [UInt8](repeating: 1, count: 32)))))
    let macError = refusal(DeviceResponse(documents: [mac]))
    #expect(macError?.code == .verificationFailed)
    #expect(macError?.reason.contains("deviceMac") == true)
  }

  /// The honest document with its device signature's payload attached: `payload`, or this
  /// session's DeviceAuthenticationBytes (as Android's wallet sends them through Chrome).
  func attached(payload: [UInt8]? = nil) throws -> Document {
    let genuine = try present(mdl, key: deviceKey)
    let bytes =
      payload
      ?? DeviceAuthentication.bytes(
        sessionTranscript: transcript, docType: genuine.docType,
        deviceNameSpaces: genuine.deviceSigned.nameSpaces)
    return Document(
      docType: genuine.docType, issuerSigned: genuine.issuerSigned,
      deviceSigned: DeviceSigned(
        nameSpaces: genuine.deviceSigned.nameSpaces,
        deviceAuth: .signature(
          try COSESign1.sign(payload: bytes, detached: false, signer: deviceKey))))
  }

  @Test("An attached device payload equal to DeviceAuthenticationBytes: accepted, reported")
  func attachedIdenticalPayload() throws {
    let result = try verify(DeviceResponse(documents: [try attached()]))
    let docType = "org.iso.18013.5.1.mDL"
    #expect(result.report.checks.contains(.documentDeviceSignature(docType: docType)))
    #expect(result.report.checks.contains(.deviceSignaturePayloadAttached(docType: docType)))
    // The detached form does not carry the note.
    let detached = try verify(DeviceResponse(documents: [try present(mdl, key: deviceKey)]))
    #expect(!detached.report.checks.contains(.deviceSignaturePayloadAttached(docType: docType)))
  }

  @Test("Any other attached device payload is refused, though the device key signed it")
  func attachedOtherPayload() throws {
    let other = try AnnexCVerifier.makeRequest(
      itemsRequests: state.request.deviceRequest.docRequests.map(\.itemsRequest),
      origin: try WebOrigin("https://other.example"))
    let replayed = DeviceAuthentication.bytes(
      sessionTranscript: other.sessionTranscript, docType: "org.iso.18013.5.1.mDL",
      deviceNameSpaces: EncodedCBOR(encoding: .map([:])))
    let error = refusal(DeviceResponse(documents: [try attached(payload: replayed)]))
    #expect(error?.code == .verificationFailed)
    #expect((error?.underlying as? MdocError)?.code == .invalidDeviceSignature)
  }

  @Test("In person (ProximityReader) the same rule holds: identical accepted, other refused")
  func attachedPayloadInPerson() throws {
    func read(_ document: Document) throws(VerifierError) -> ProximityReader.Result {
      try ProximityReader.verify(
        response: DeviceResponse(documents: [document]).bytes,
        request: state.request.deviceRequest, sessionTranscript: transcript, eReaderKey: nil,
        issuerTrustAnchors: [pki.iaca], now: pki.clock)
    }
    let result = try read(try attached())
    #expect(
      result.report.checks.contains(.deviceSignaturePayloadAttached(docType: mdl.docType)))
    let other = try attached(payload: [0x01])
    do throws(VerifierError) {
      _ = try read(other)
      Issue.record("the reader accepted another attached payload")
    } catch {
      #expect(error.code == .verificationFailed)
      #expect((error.underlying as? MdocError)?.code == .invalidDeviceSignature)
    }
  }

  @Test("A document of a docType that was not requested is refused")
  func unrequestedDocType() throws {
    // A genuine, device-signed PID answering an mDL-only request.
    let document = try Document.present(
      pid, disclosing: ["eu.europa.ec.eudi.pid.1": ["age_over_18"]], sessionTranscript: transcript,
      deviceKey: deviceKey)
    let error = refusal(DeviceResponse(documents: [document]))
    #expect(error?.code == .verificationFailed)
    #expect(error?.reason == "eu.europa.ec.eudi.pid.1 was not requested")
    // The one doc request is answered once: a second mDL is not requested either.
    let mdlDocument = try present(mdl, key: deviceKey)
    let twice = refusal(DeviceResponse(documents: [mdlDocument, mdlDocument]))
    #expect(twice?.reason == "org.iso.18013.5.1.mDL was not requested")
  }

  @Test("A DeviceResponse with a non-zero status is refused, even with a valid document")
  func nonZeroStatus() throws {
    let document = try present(mdl, key: deviceKey)
    for status in [DeviceResponse.statusGeneralError, 11, 12, 20] {
      let error = refusal(DeviceResponse(documents: [document], status: status))
      #expect(error?.code == .verificationFailed)
      #expect(
        error?.reason.hasPrefix("the response opened but its DeviceResponse has status \(status) (")
          == true, "\(error?.reason ?? "no refusal")")
    }
  }
}
