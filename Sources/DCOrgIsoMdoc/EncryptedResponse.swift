import DCAPI
import DCCBOR
package import DCCrypto
import DCEncoding
package import DCHPKE
import DCJOSE
package import DCJSON
package import DCMdoc

/// `EncryptedResponse = ["dcapi", {"enc": bstr, "cipherText": bstr}]` (ISO/IEC TS 18013-7:2025
/// C.3.2.3): the DeviceResponse sealed with HPKE to the verifier.
package struct EncryptedResponse: Sendable, Hashable {
  /// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, base mode (C.3.2.3).
  package static let ciphersuite = HPKE.Ciphersuite.p256SHA256AES128GCM

  /// The encapsulated key: a 65-byte uncompressed point.
  package let enc: [UInt8]
  /// The ciphertext with its tag.
  package let cipherText: [UInt8]

  /// Assembles a response from its parts.
  package init(enc: [UInt8], cipherText: [UInt8]) {
    self.enc = enc
    self.cipherText = cipherText
  }

  /// Seals a DeviceResponse: `info` is the SessionTranscript bytes, the AAD is empty.
  package static func seal(
    _ deviceResponse: DeviceResponse, to recipient: ECPublicKey,
    sessionTranscript: SessionTranscript
  ) throws(OrgIsoMdocError) -> EncryptedResponse {
    do {
      let (enc, ciphertext) = try HPKE.seal(
        deviceResponse.bytes, to: recipient, ciphersuite: ciphersuite, info: sessionTranscript.bytes
      )
      return EncryptedResponse(enc: enc, cipherText: ciphertext)
    } catch {
      throw OrgIsoMdocError(.cryptoFailure, "HPKE seal: \(error.reason)", underlying: error)
    }
  }

  /// Opens the response with the verifier's private key and the transcript it expects.
  ///
  /// A different origin gives a different transcript, so the message does not open.
  package func open(privateKey: ECPrivateKey, sessionTranscript: SessionTranscript)
    throws(OrgIsoMdocError) -> [UInt8]
  {
    do {
      return try HPKE.open(
        cipherText, encapsulatedKey: enc, privateKey: privateKey, ciphersuite: Self.ciphersuite,
        info: sessionTranscript.bytes)
    } catch {
      throw OrgIsoMdocError(
        .decryptionFailed, "HPKE open: \(error.reason)", underlying: error)
    }
  }

  /// The CBOR encoding (what iOS passes to `ISO18013MobileDocumentResponse(responseData:)`).
  package var bytes: [UInt8] {
    CBOREncoder(mapOrder: .preserved).encode([
      "dcapi", ["enc": .byteString(enc), "cipherText": .byteString(cipherText)],
    ])
  }

  /// Reads an EncryptedResponse from its CBOR bytes.
  package init(bytes: [UInt8]) throws(OrgIsoMdocError) {
    guard let item = try? CBOR.decode(bytes), let members = item.array, members.count == 2,
      members[0].text == "dcapi",
      let map = members[1].map, let enc = map["enc"]?.bytes,
      let cipherText = map["cipherText"]?.bytes
    else {
      throw OrgIsoMdocError(
        .invalidRequest, "not an EncryptedResponse [\"dcapi\", {enc, cipherText}]")
    }
    self.init(enc: enc, cipherText: cipherText)
  }

  /// The response `data` for the website: `{"response": b64url(EncryptedResponse)}`.
  package var data: JSONValue { .object([("response", .string(Base64URL.encode(bytes)))]) }

  /// Reads the response `data` object.
  package init(data: JSONValue) throws(OrgIsoMdocError) {
    guard let text = data["response"]?.string else {
      throw OrgIsoMdocError(
        .invalidRequest, "org-iso-mdoc response data needs a string \"response\"")
    }
    guard let bytes = try? Base64URL.decode(text) else {
      throw OrgIsoMdocError(.invalidRequest, "the response is not base64url")
    }
    try self.init(bytes: bytes)
  }
}
