import DCCBOR
import DCCOSE
import DCCrypto
import DCMdoc
import DCWalletTestSupport
import Testing

/// A deviceSignature whose payload is attached (as Android's wallet sends it through Chrome):
/// accepted only when byte-identical to the DeviceAuthenticationBytes the verifier computes
/// (ISO 18013-5 §9.1.3.4 asks for a detached payload).
@Suite("mdoc device signature with an attached payload")
struct AttachedDevicePayloadTests {
  let pki: TestPKI
  let device: ECPrivateKey
  let mdoc: IssuerSigned
  let transcript = SessionTranscript(
    handover: Handover.dcapi(encryptionInfoBase64: "abc", origin: "https://verifier.example"))

  init() throws {
    pki = try TestPKI()
    device = try ECPrivateKey(curve: .p256)
    mdoc = try pki.issue(deviceKey: device.publicKey)
  }

  /// A document device-signed over `payload` (default: this session's DeviceAuthenticationBytes)
  /// by `key`, with the payload attached; sent and read back as a DeviceResponse.
  func attached(payload: [UInt8]? = nil, key: ECPrivateKey? = nil) throws -> Document {
    let nameSpaces = EncodedCBOR(encoding: .map([:]))
    let bytes =
      payload
      ?? DeviceAuthentication.bytes(
        sessionTranscript: transcript, docType: mdoc.docType, deviceNameSpaces: nameSpaces)
    let sign1 = try COSESign1.sign(payload: bytes, detached: false, signer: key ?? device)
    let document = Document(
      docType: mdoc.docType, issuerSigned: mdoc.disclosing(["org.iso.18013.5.1": ["age_over_18"]]),
      deviceSigned: DeviceSigned(nameSpaces: nameSpaces, deviceAuth: .signature(sign1)))
    let read = try DeviceResponse(bytes: DeviceResponse(documents: [document]).bytes)
    return try #require(read.documents.first)
  }

  @Test("An attached payload identical to the DeviceAuthenticationBytes verifies, and says so")
  func identicalAttachedPayloadIsAccepted() throws {
    let document = try attached()
    guard case .signature(let sign1) = document.deviceSigned.deviceAuth else {
      Issue.record("expected a deviceSignature")
      return
    }
    #expect(sign1.payload != nil)
    let verified = try document.verifyDeviceAuthentication(
      sessionTranscript: transcript, deviceKey: device.publicKey)
    #expect(verified == .signatureWithAttachedPayload)
    // The detached form, as ISO 18013-5 asks, reports itself as such.
    let detached = try Document.present(
      mdoc, disclosing: ["org.iso.18013.5.1": ["age_over_18"]], sessionTranscript: transcript,
      deviceKey: device)
    #expect(
      try detached.verifyDeviceAuthentication(
        sessionTranscript: transcript, deviceKey: device.publicKey) == .signature)
  }

  @Test("Any other attached payload is refused, even when the device key signed it")
  func otherAttachedPayloadIsRefused() throws {
    // Another session's DeviceAuthenticationBytes, genuinely signed by the device key.
    let other = SessionTranscript(
      handover: Handover.dcapi(encryptionInfoBase64: "abc", origin: "https://evil.example"))
    let replayed = DeviceAuthentication.bytes(
      sessionTranscript: other, docType: mdoc.docType,
      deviceNameSpaces: EncodedCBOR(encoding: .map([:])))
    for payload in [replayed, [0x01, 0x02], []] {
      let document = try attached(payload: payload)
      let error = mdocError {
        try document.verifyDeviceAuthentication(
          sessionTranscript: transcript, deviceKey: device.publicKey)
      }
      #expect(error?.code == .invalidDeviceSignature)
      #expect(error?.reason.contains("attached payload") == true, "\(String(describing: error))")
    }
  }

  @Test("The identical attached payload signed by another key is refused")
  func attachedPayloadByAnotherKeyIsRefused() throws {
    let document = try attached(key: try ECPrivateKey(curve: .p256))
    let error = mdocError {
      try document.verifyDeviceAuthentication(
        sessionTranscript: transcript, deviceKey: device.publicKey)
    }
    #expect(error?.code == .invalidDeviceSignature)
  }

  func mdocError(_ body: () throws -> Void) -> MdocError? {
    do {
      try body()
      Issue.record("expected an MdocError, nothing was thrown")
    } catch let error as MdocError {
      return error
    } catch {
      Issue.record("expected an MdocError, got \(error)")
    }
    return nil
  }
}
