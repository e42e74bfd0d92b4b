import DCCBOR
import DCCOSE
import DCCrypto
import DCTestSupport
import DCX509
import Foundation
import Testing

@testable import DCMdoc

/// The ISO 18013-5 Annex D worked example, decoded, re-encoded and verified.
struct AnnexD {
  let json: [String: Any]

  init() throws {
    json = try VectorFile.object("iso18013-5-annex-d", in: .module)
  }

  func hex(_ key: String) throws -> [UInt8] { hexBytes(try #require(json[key] as? String)) }

  func certificate(_ key: String) throws -> Certificate {
    let certs = try #require(json["certificates"] as? [String: String])
    return try Certificate(derEncoded: hexBytes(try #require(certs[key])))
  }

  func key(_ name: String) throws -> ECPrivateKey {
    let keys = try #require(json["keys"] as? [String: [String: String]])
    return try ECPrivateKey(
      rawRepresentation: hexBytes(try #require(keys[name]?["d"])), curve: .p256)
  }

  var transcript: SessionTranscript {
    get throws { try SessionTranscript(taggedBytes: hex("session_transcript_bytes")) }
  }

  /// Inside every certificate's and the MSO's validity window.
  static let validTime = ISO8601DateFormatter().date(from: "2021-01-01T00:00:00Z") ?? Date()
}

@Suite("ISO 18013-5 Annex D")
struct AnnexDTests {
  @Test("SessionTranscriptBytes decode and re-encode exactly")
  func sessionTranscript() throws {
    let d = try AnnexD()
    let transcript = try d.transcript
    #expect(transcript.taggedBytes == (try d.hex("session_transcript_bytes")))
    #expect(transcript.encoded.value.array?.count == 3)
  }

  @Test(
    "DeviceRequest decodes, re-encodes to identical bytes, and its readerAuth verifies and is trusted"
  )
  func deviceRequest() throws {
    let d = try AnnexD()
    let bytes = try d.hex("device_request")
    let request = try DeviceRequest(bytes: bytes)
    #expect(request.bytes == bytes)
    #expect(request.version == "1.0")
    #expect(request.docRequests.count == 1)
    let doc = request.docRequests[0]
    #expect(doc.itemsRequestBytes.bytes == (try d.hex("items_request")))
    #expect(doc.itemsRequest.docType == "org.iso.18013.5.1.mDL")
    #expect(doc.itemsRequest.requestedElements.count == 6)
    #expect(doc.itemsRequest.requestedElements.allSatisfy { $0.nameSpace == "org.iso.18013.5.1" })
    #expect(
      ReaderAuthentication.bytes(
        sessionTranscript: try d.transcript, itemsRequestBytes: doc.itemsRequestBytes)
        == (try d.hex("reader_authentication_bytes")))
    let auth = try request.authenticateReader(
      sessionTranscript: try d.transcript, trustAnchors: [try d.certificate("reader_root_der")],
      at: AnnexD.validTime)
    let identity = try #require(auth.perDocRequest[0])
    #expect(identity.trust.isTrusted)
    #expect(identity.name == "reader")
    // Without the anchor, the signature still verifies but the reader is untrusted.
    let unknown = try request.authenticateReader(
      sessionTranscript: try d.transcript, trustAnchors: [], at: AnnexD.validTime)
    #expect(unknown.perDocRequest[0]?.trust.isTrusted == false)
  }

  @Test("A tampered readerAuth or another transcript is an invalid reader signature")
  func tamperedReaderAuth() throws {
    let d = try AnnexD()
    let request = try DeviceRequest(bytes: try d.hex("device_request"))
    let other = SessionTranscript(
      handover: Handover.dcapi(encryptionInfoBase64: "x", origin: "https://a.example"))
    #expect {
      try request.authenticateReader(
        sessionTranscript: other, trustAnchors: [], at: AnnexD.validTime)
    } throws: { ($0 as? MdocError)?.code == .invalidReaderSignature }
    let doc = request.docRequests[0]
    let readerAuth = try #require(doc.readerAuth)
    var signature = readerAuth.signature
    signature[5] ^= 1
    let tampered = DeviceRequest(
      docRequests: [
        DocRequest(
          itemsRequestBytes: doc.itemsRequestBytes, itemsRequest: doc.itemsRequest,
          readerAuth: COSESign1(headers: readerAuth.headers, payload: nil, signature: signature))
      ], deviceRequestInfo: nil, readerAuthAll: [])
    #expect {
      try tampered.authenticateReader(
        sessionTranscript: try d.transcript, trustAnchors: [], at: AnnexD.validTime)
    } throws: { ($0 as? MdocError)?.code == .invalidReaderSignature }
  }

  @Test(
    "DeviceResponse decodes, re-encodes to identical bytes; issuerAuth, digests, chain and deviceMac verify"
  )
  func deviceResponse() throws {
    let d = try AnnexD()
    let bytes = try d.hex("device_response")
    let response = try DeviceResponse(bytes: bytes)
    #expect(response.bytes == bytes)
    #expect(response.status == 0)
    let document = try #require(response.documents.first)
    #expect(document.docType == "org.iso.18013.5.1.mDL")
    #expect(document.issuerSigned.issuerAuth.cbor().mdocEncoded == (try d.hex("issuer_auth")))
    #expect(document.issuerSigned.nameSpaces.first?.items.count == 6)
    let portrait = document.issuerSigned.item(nameSpace: "org.iso.18013.5.1", element: "portrait")
    #expect(portrait?.elementValue.bytes == (try d.hex("portrait_jpeg")))
    let verification = try document.issuerSigned.verify(
      expectedDocType: document.docType, trustAnchors: [try d.certificate("iaca_der")],
      at: AnnexD.validTime)
    #expect(verification.trust.isTrusted)
    #expect(verification.documentSigner.subject.commonName == "utopia ds")
    let deviceKey = try d.key("s_device_key")
    #expect(verification.deviceKey == deviceKey.publicKey)
    // deviceMac: the reader derives EMacKey from its ephemeral private key and the device key.
    let transcript = try d.transcript
    #expect(
      DeviceAuthentication.bytes(
        sessionTranscript: transcript, docType: document.docType,
        deviceNameSpaces: document.deviceSigned.nameSpaces)
        == (try d.hex("device_authentication_bytes")))
    let readerKey = try d.key("e_reader_key")
    let macKey = try DeviceAuthentication.macKey(
      privateKey: readerKey, peerKey: verification.deviceKey, sessionTranscript: transcript)
    let intermediates = try #require(d.json["e_mac_key_intermediates"] as? [String: String])
    #expect(macKey == hexBytes(try #require(intermediates["e_mac_key"])))
    try document.verifyDeviceAuthentication(
      sessionTranscript: transcript, deviceKey: verification.deviceKey
    ) {
      () throws(MdocError) in macKey
    }
    // Another session's transcript fails the MAC.
    let other = SessionTranscript(handover: .null)
    let macError = #expect(throws: MdocError.self) {
      try document.verifyDeviceAuthentication(
        sessionTranscript: other, deviceKey: verification.deviceKey
      ) {
        () throws(MdocError) in macKey
      }
    }
    #expect(macError?.code == .invalidDeviceSignature)
    #expect(macError?.reason == "deviceMac: COSE_Mac0 tag does not verify")
  }

  @Test(
    "Issuer verification refuses an untrusted IACA, a wrong docType, an expired or not-yet-valid mdoc"
  )
  func issuerRefusals() throws {
    let d = try AnnexD()
    let issuerSigned = try #require(
      try DeviceResponse(bytes: try d.hex("device_response")).documents.first
    ).issuerSigned
    let iaca = try d.certificate("iaca_der")
    func code(_ body: () throws -> Void) -> MdocErrorCode? {
      do {
        try body()
        return nil
      } catch {
        return (error as? MdocError)?.code
      }
    }
    #expect(
      code {
        _ = try issuerSigned.verify(
          trustAnchors: [try d.certificate("reader_root_der")], at: AnnexD.validTime)
      } == .untrustedIssuer)
    #expect(
      code { _ = try issuerSigned.verify(trustAnchors: [], at: AnnexD.validTime) }
        == .untrustedIssuer)
    let lenient = try issuerSigned.verify(
      trustAnchors: [], at: AnnexD.validTime, requireTrustedIssuer: false)
    #expect(!lenient.trust.isTrusted)
    #expect(
      code {
        _ = try issuerSigned.verify(
          expectedDocType: "org.example.other", trustAnchors: [iaca], at: AnnexD.validTime)
      } == .docTypeMismatch)
    let before = ISO8601DateFormatter().date(from: "2020-10-01T10:00:00Z") ?? Date()
    #expect(
      code {
        _ = try issuerSigned.verify(trustAnchors: [iaca], at: before, requireTrustedIssuer: false)
      } == .notYetValid)
    let after = ISO8601DateFormatter().date(from: "2021-10-01T14:00:00Z") ?? Date()
    #expect(
      code {
        _ = try issuerSigned.verify(trustAnchors: [iaca], at: after, requireTrustedIssuer: false)
      } == .expired)
  }

  @Test(
    "A changed element value is a digest mismatch; a changed MSO is an invalid issuer signature")
  func tampering() throws {
    let d = try AnnexD()
    let issuerSigned = try #require(
      try DeviceResponse(bytes: try d.hex("device_response")).documents.first
    ).issuerSigned
    let iaca = try d.certificate("iaca_der")
    let ns = try #require(issuerSigned.nameSpaces.first)
    var items = ns.items
    let first = items[0]
    items[0] = IssuerSignedItem(
      digestID: first.digestID, random: first.random, elementIdentifier: first.elementIdentifier,
      elementValue: "Mallory")
    let forged = try IssuerSigned(
      nameSpaces: [(ns.nameSpace, items)], issuerAuth: issuerSigned.issuerAuth)
    #expect {
      try forged.verify(trustAnchors: [iaca], at: AnnexD.validTime)
    } throws: { ($0 as? MdocError)?.code == .digestMismatch }
    var payload = try #require(issuerSigned.issuerAuth.payload)
    payload[payload.count - 3] ^= 1
    let changedMSO = COSESign1(
      headers: issuerSigned.issuerAuth.headers, payload: payload,
      signature: issuerSigned.issuerAuth.signature)
    let forgedMSO = try IssuerSigned(nameSpaces: issuerSigned.nameSpaces, issuerAuth: changedMSO)
    #expect {
      try forgedMSO.verify(trustAnchors: [iaca], at: AnnexD.validTime)
    } throws: { ($0 as? MdocError)?.code == .invalidIssuerSignature }
  }
}
