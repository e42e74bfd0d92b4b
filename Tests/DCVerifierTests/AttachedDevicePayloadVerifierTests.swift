import DCCBOR
import DCCOSE
import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCVerifier
import DCWalletTestSupport
import Foundation
import Testing

/// An OpenID4VP mdoc presentation whose device signature carries its payload attached (ISO
/// 18013-5 §9.1.3.4 asks for it detached): accepted when byte-identical to the
/// DeviceAuthenticationBytes of the OpenID4VPDCAPIHandover transcript, reported; else refused.
@Suite("OpenID4VP mdoc: a device signature with an attached payload")
struct AttachedDevicePayloadVerifierTests {
  static let origin = "https://verifier.example"
  static let query: JSONValue = [
    "credentials": [
      [
        "id": "mdl", "format": "mso_mdoc", "meta": ["doctype_value": "org.iso.18013.5.1.mDL"],
        "claims": [["path": ["org.iso.18013.5.1", "family_name"]]],
      ]
    ]
  ]

  let pki: TestPKI
  let deviceKey: ECPrivateKey
  let mdl: IssuerSigned
  let state: VerifierState

  init() throws {
    pki = try TestPKI()
    deviceKey = try ECPrivateKey(curve: .p256)
    mdl = try pki.issue(deviceKey: deviceKey.publicKey)
    state = VerifierState(
      protocolID: .unsigned, origin: Self.origin, nonce: "attached-nonce",
      responseMode: .dcAPI, encryptionKey: nil, dcqlQuery: Self.query)
  }

  /// The `dc_api` response data with the mDL device-signed over `payload` (default: the
  /// DeviceAuthenticationBytes of this request's transcript), attached.
  func response(payload: [UInt8]? = nil) throws -> JSONValue {
    let transcript = SessionTranscript(
      handover: Handover.openID4VPDCAPI(
        origin: Self.origin, nonce: state.nonce, jwkThumbprint: nil))
    let nameSpaces = EncodedCBOR(encoding: .map([:]))
    let bytes =
      payload
      ?? DeviceAuthentication.bytes(
        sessionTranscript: transcript, docType: mdl.docType, deviceNameSpaces: nameSpaces)
    let document = Document(
      docType: mdl.docType, issuerSigned: mdl.disclosing(["org.iso.18013.5.1": ["family_name"]]),
      deviceSigned: DeviceSigned(
        nameSpaces: nameSpaces,
        deviceAuth: .signature(
          try COSESign1.sign(payload: bytes, detached: false, signer: deviceKey))))
    let token = Base64URL.encode(DeviceResponse(documents: [document]).bytes)
    return ["vp_token": ["mdl": [.string(token)]]]
  }

  @Test("The identical attached payload verifies; the credential's report says it was attached")
  func identicalAttachedPayload() throws {
    let verified = try state.verifyResponse(
      try response(), sdJWTIssuerAnchors: [], mdocIssuerAnchors: [pki.iaca], now: pki.clock)
    let credential = try #require(verified.credentials["mdl"]?.first)
    #expect(credential.report.checks.contains(.mdocHandoverDeviceSignature(origin: Self.origin)))
    #expect(
      credential.report.checks.contains(
        .deviceSignaturePayloadAttached(docType: "org.iso.18013.5.1.mDL")))
  }

  @Test("Another attached payload, though the device key signed it, is refused")
  func otherAttachedPayload() throws {
    let other = SessionTranscript(
      handover: Handover.openID4VPDCAPI(
        origin: "https://other.example", nonce: state.nonce, jwkThumbprint: nil))
    let replayed = DeviceAuthentication.bytes(
      sessionTranscript: other, docType: mdl.docType,
      deviceNameSpaces: EncodedCBOR(encoding: .map([:])))
    let data = try response(payload: replayed)
    do throws(OpenID4VPError) {
      _ = try state.verifyResponse(
        data, sdJWTIssuerAnchors: [], mdocIssuerAnchors: [pki.iaca], now: pki.clock)
      Issue.record("the verifier accepted another attached payload")
    } catch {
      #expect(error.code == .invalidPresentation)
      #expect((error.underlying as? MdocError)?.code == .invalidDeviceSignature, "\(error)")
    }
  }
}
