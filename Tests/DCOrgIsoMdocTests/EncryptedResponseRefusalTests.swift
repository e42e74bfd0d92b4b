import DCAPI
import DCCBOR
import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import Foundation
import Testing

/// ISO/IEC TS 18013-7:2025 C.3.2.3: `EncryptedResponse = ["dcapi", {"enc", "cipherText"}]`.
@Suite("Annex C EncryptedResponse refusals")
struct EncryptedResponseRefusalTests {
  @Test("A response that is not [\"dcapi\", {enc, cipherText}] is refused before decryption")
  func shape() throws {
    let key = try ECPrivateKey(curve: .p256)
    let transcript = SessionTranscript(
      handover: Handover.dcapi(encryptionInfoBase64: "abc", origin: "https://verifier.example"))
    let sealed = try EncryptedResponse.seal(
      DeviceResponse(documents: []), to: key.publicKey, sessionTranscript: transcript)
    let body: CBOR = ["enc": .byteString(sealed.enc), "cipherText": .byteString(sealed.cipherText)]
    // The baseline: the genuine encoding reads back and opens.
    let genuine = try EncryptedResponse(bytes: CBOR.array(["dcapi", body]).encoded())
    _ = try genuine.open(privateKey: key, sessionTranscript: transcript)
    let cases: [CBOR] = [
      ["other", body], [.byteString(Array("dcapi".utf8)), body], ["dcapi"], ["dcapi", body, 1],
      ["dcapi", ["enc": .byteString(sealed.enc)]],
      ["dcapi", ["enc": .textString("x"), "cipherText": .byteString(sealed.cipherText)]],
      ["dcapi": body],
    ]
    for item in cases {
      let error = #expect(throws: OrgIsoMdocError.self, "\(item)") {
        try EncryptedResponse(bytes: item.encoded())
      }
      #expect(error?.code == .invalidRequest, "\(item)")
      #expect(error?.reason == #"not an EncryptedResponse ["dcapi", {enc, cipherText}]"#)
      // The same through the JSON the page receives.
      let data: JSONValue = ["response": .string(Base64URL.encode(item.encoded()))]
      let invalidRequestError = #expect(throws: OrgIsoMdocError.self, "\(item)") {
        try EncryptedResponse(data: data)
      }
      #expect(invalidRequestError?.code == .invalidRequest)
    }
  }
}
