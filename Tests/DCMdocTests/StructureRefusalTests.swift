import DCCBOR
import DCCOSE
import DCCrypto
import DCMdoc
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// mdocs whose issuer signature is genuine but whose structure breaks one rule of ISO 18013-5
/// §9.1.2.4 / §9.3.1. Each case changes one thing, so only the check it names can refuse it.
@Suite("mdoc structure refusals")
struct StructureRefusalTests {
  static let nameSpace = "org.iso.18013.5.1"
  let pki: TestPKI
  let device: ECPrivateKey
  let mdoc: IssuerSigned

  init() throws {
    pki = try TestPKI()
    device = try ECPrivateKey(curve: .p256)
    mdoc = try pki.issue(deviceKey: device.publicKey)
  }

  /// The error `verify` throws, or an issue when it accepts.
  func refusal(_ issuerSigned: IssuerSigned) -> MdocError? {
    do {
      _ = try issuerSigned.verify(
        expectedDocType: "org.iso.18013.5.1.mDL", trustAnchors: [pki.iaca], at: pki.clock)
      Issue.record("verify accepted the mdoc")
      return nil
    } catch {
      return error
    }
  }

  /// The same issuerAuth with other items; decoded from bytes so nothing is cached.
  func reassembled(_ nameSpaces: [(nameSpace: String, items: [IssuerSignedItem])]) throws
    -> IssuerSigned
  {
    let assembled = try IssuerSigned(nameSpaces: nameSpaces, issuerAuth: mdoc.issuerAuth)
    return try IssuerSigned(bytes: assembled.bytes)
  }

  /// Signs an MSO encoding as the test document signer would, with `alg` where asked.
  func signMSO(_ msoMap: CBOR, algInProtectedHeader: Bool = true) throws -> COSESign1 {
    let payload = EncodedCBOR(encoding: msoMap).tag24.encoded()
    let x5chain: CBORMap = [
      COSEHeaderLabel.x5chain: COSEHeaders.x5chainValue([pki.documentSigner.derBytes])
    ]
    if algInProtectedHeader {
      return try COSESign1.sign(payload: payload, unprotected: x5chain, signer: pki.dsKey)
    }
    var unprotected = x5chain
    unprotected[key: COSEHeaderLabel.algorithm] = CBOR(COSEAlgorithm.es256.rawValue)
    let headers = COSEHeaders(protected: CBORMap(), unprotected: unprotected)
    let tbs = COSESign1.toBeSigned(protectedBytes: [], externalAAD: [], payload: payload)
    return COSESign1(
      headers: headers, payload: payload,
      signature: try pki.dsKey.signature(for: tbs).rawRepresentation)
  }

  @Test("The untouched mdoc verifies (the baseline)")
  func baseline() throws {
    let verification = try mdoc.verify(
      expectedDocType: "org.iso.18013.5.1.mDL", trustAnchors: [pki.iaca], at: pki.clock)
    #expect(verification.deviceKey == device.publicKey)
    // Re-signing the same MSO through the helper below verifies too.
    let resigned = try IssuerSigned(
      nameSpaces: mdoc.nameSpaces, issuerAuth: try signMSO(mdoc.mso.encoded.value))
    _ = try resigned.verify(trustAnchors: [pki.iaca], at: pki.clock)
  }

  @Test("Items under a namespace the MSO has no digests for are refused")
  func namespaceWithoutDigests() throws {
    let items = mdoc.nameSpaces[0].items
    let moved = try reassembled([(Self.nameSpace, items), ("org.example.extra", [items[0]])])
    let error = refusal(moved)
    #expect(error?.code == .digestMismatch)
    #expect(error?.reason == "the MSO has no digests for namespace org.example.extra")
  }

  @Test("An item repeated under its digestID is refused")
  func duplicateDigestID() throws {
    let items = mdoc.nameSpaces[0].items
    let error = refusal(try reassembled([(Self.nameSpace, items + [items[1]])]))
    #expect(error?.code == .malformed)
    #expect(error?.reason == "digestID \(items[1].digestID) appears twice in \(Self.nameSpace)")
  }

  @Test("An item whose digestID the MSO does not hold is refused")
  func digestIDAbsentFromMSO() throws {
    let absent = (mdoc.mso.valueDigests[Self.nameSpace]?.keys.max() ?? 0) + 1
    let forged = IssuerSignedItem(
      digestID: absent, random: [UInt8](repeating: 9, count: 16),
      elementIdentifier: "age_over_21", elementValue: true)
    let error = refusal(try reassembled([(Self.nameSpace, mdoc.nameSpaces[0].items + [forged])]))
    #expect(error?.code == .digestMismatch)
    #expect(
      error?.reason == "\(Self.nameSpace)/age_over_21: digestID \(absent) is not in the MSO")
  }

  /// §9.1.2.4: "alg" must be in the protected header; a signature valid over an empty
  /// protected header (alg unprotected) is refused.
  @Test("issuerAuth with alg only in the unprotected header is refused")
  func algNotProtected() throws {
    let auth = try signMSO(mdoc.mso.encoded.value, algInProtectedHeader: false)
    // The signature itself is valid: only the header rule refuses it.
    try auth.verify(publicKey: pki.dsKey.publicKey)
    let error = refusal(try IssuerSigned(nameSpaces: mdoc.nameSpaces, issuerAuth: auth))
    #expect(error?.code == .invalidIssuerSignature)
    #expect(error?.reason == "issuerAuth alg is not in the protected header")
  }

  @Test(
    "An MSO digest algorithm other than SHA-256/384/512 is refused",
    arguments: ["SHA-1", "MD5", "sha-256"])
  func unsupportedDigestAlgorithm(name: String) throws {
    var map = try #require(mdoc.mso.encoded.value.map)
    map["digestAlgorithm"] = .textString(name)
    let issuerSigned = try IssuerSigned(
      nameSpaces: mdoc.nameSpaces, issuerAuth: try signMSO(.map(map)))
    let error = refusal(issuerSigned)
    #expect(error?.code == .unsupportedDigestAlgorithm)
    #expect(error?.reason == "MSO digestAlgorithm \(name) is not supported")
  }

  /// §9.1.2.4 keyAuthorizations: the device may sign only what the issuer authorised.
  @Test("Device-signed elements the MSO's keyAuthorizations do not authorise are refused")
  func unauthorizedDeviceSignedElements() throws {
    let transcript = SessionTranscript(
      handover: Handover.dcapi(encryptionInfoBase64: "abc", origin: "https://verifier.example"))
    func document(_ issued: IssuerSigned, deviceSigned: CBOR) throws -> Document {
      let nameSpaces = EncodedCBOR(encoding: deviceSigned)
      let payload = DeviceAuthentication.bytes(
        sessionTranscript: transcript, docType: issued.docType, deviceNameSpaces: nameSpaces)
      let signature = try COSESign1.sign(payload: payload, detached: true, signer: device)
      return Document(
        docType: issued.docType, issuerSigned: issued,
        deviceSigned: DeviceSigned(nameSpaces: nameSpaces, deviceAuth: .signature(signature)))
    }
    func issue(_ authorizations: KeyAuthorizations?) throws -> IssuerSigned {
      try MdocIssuer(signer: pki.dsKey, certificateChain: [pki.documentSigner]).issue(
        docType: "org.iso.18013.5.1.mDL",
        nameSpaces: [(Self.nameSpace, [("family_name", "Mustermann")])],
        deviceKey: device.publicKey,
        validity: ValidityInfo(
          signed: pki.clock, validFrom: pki.clock.addingTimeInterval(-60),
          validUntil: pki.clock.addingTimeInterval(3600)),
        keyAuthorizations: authorizations)
    }
    let signedElement: CBOR = ["org.example.device": ["step_count": 1234]]
    let cases: [(KeyAuthorizations?, Bool)] = [
      (nil, false),
      (KeyAuthorizations(nameSpaces: ["org.example.other"]), false),
      (KeyAuthorizations(dataElements: ["org.example.device": ["heart_rate"]]), false),
      (KeyAuthorizations(dataElements: ["org.example.device": ["step_count"]]), true),
      (KeyAuthorizations(nameSpaces: ["org.example.device"]), true),
    ]
    for (authorizations, allowed) in cases {
      let issued = try issue(authorizations)
      let doc = try Document(
        cbor: try CBOR.decode(try document(issued, deviceSigned: signedElement).cbor.encoded()))
      let key = try doc.issuerSigned.verify(trustAnchors: [pki.iaca], at: pki.clock).deviceKey
      do {
        try doc.verifyDeviceAuthentication(sessionTranscript: transcript, deviceKey: key)
        #expect(allowed, "accepted under \(String(describing: authorizations))")
      } catch {
        #expect(!allowed, "refused under \(String(describing: authorizations)): \(error)")
        #expect(error.code == .unauthorizedElement)
        #expect(
          error.reason
            == "device-signed org.example.device/step_count is not authorized by the MSO")
      }
    }
    // No device-signed elements need no authorisation.
    let plain = try document(try issue(nil), deviceSigned: [:])
    try plain.verifyDeviceAuthentication(sessionTranscript: transcript, deviceKey: device.publicKey)
  }
  // MARK: - Envelopes (ISO 18013-5 §8.3.2.1.2)

  /// The error a decoding step throws, or an issue when it succeeds.
  func decodingError(_ body: () throws(MdocError) -> Void) -> MdocError? {
    do {
      try body()
      Issue.record("decoded")
      return nil
    } catch {
      return error
    }
  }

  @Test("A DeviceRequest or DeviceResponse of another major version is refused")
  func majorVersion() throws {
    let request = DeviceRequest(docRequests: [
      DocRequest(
        itemsRequest: ItemsRequest(
          docType: "org.iso.18013.5.1.mDL",
          nameSpaces: [(Self.nameSpace, [.init("age_over_18", intentToRetain: false)])]))
    ])
    var requestMap = try #require(request.cbor.map)
    // A later minor version is read (forward compatible); another major version is not.
    requestMap["version"] = "1.7"
    _ = try DeviceRequest(cbor: .map(requestMap))
    requestMap["version"] = "2.0"
    let requestError = decodingError { () throws(MdocError) in
      _ = try DeviceRequest(cbor: .map(requestMap))
    }
    #expect(requestError?.code == .malformed)
    #expect(requestError?.reason == "DeviceRequest version 2.0 is not supported")

    var responseMap = try #require(DeviceResponse(documents: []).cbor.map)
    responseMap["version"] = "1.1"
    _ = try DeviceResponse(cbor: .map(responseMap))
    responseMap["version"] = "2.0"
    let responseError = decodingError { () throws(MdocError) in
      _ = try DeviceResponse(cbor: .map(responseMap))
    }
    #expect(responseError?.code == .malformed)
    #expect(responseError?.reason == "DeviceResponse version 2.0 is not supported")
  }

  @Test("DeviceAuth holding both a deviceSignature and a deviceMac is refused")
  func bothDeviceSignatureAndMac() throws {
    let transcript = SessionTranscript(
      handover: Handover.dcapi(encryptionInfoBase64: "abc", origin: "https://verifier.example"))
    let document = try Document.present(
      mdoc, disclosing: [Self.nameSpace: ["age_over_18"]], sessionTranscript: transcript,
      deviceKey: device)
    var deviceSigned = try #require(document.deviceSigned.cbor.map)
    var auth = try #require(deviceSigned["deviceAuth"]?.map)
    // The baseline: the genuine DeviceSigned reads back.
    _ = try DeviceSigned(cbor: .map(deviceSigned))
    auth["deviceMac"] =
      COSEMac0.mac(payload: [], detached: true, key: [UInt8](repeating: 1, count: 32)).cbor()
    deviceSigned["deviceAuth"] = .map(auth)
    let error = decodingError { () throws(MdocError) in
      _ = try DeviceSigned(cbor: .map(deviceSigned))
    }
    #expect(error?.code == .malformed)
    #expect(
      error?.reason == "DeviceSigned.deviceAuth must hold exactly one of deviceSignature, deviceMac"
    )
  }

  @Test("An IssuerSigned namespace with no items is refused")
  func emptyNamespace() throws {
    var map = try #require(mdoc.cbor.map)
    var spaces = try #require(map["nameSpaces"]?.map)
    spaces["org.example.empty"] = []
    map["nameSpaces"] = .map(spaces)
    let error = decodingError { () throws(MdocError) in _ = try IssuerSigned(cbor: .map(map)) }
    #expect(error?.code == .malformed)
    #expect(error?.reason.contains("nameSpaces[org.example.empty]: at least one item") == true)
  }

  @Test("A readerAuth without x5chain is refused")
  func readerAuthWithoutChain() throws {
    let transcript = SessionTranscript(
      handover: Handover.dcapi(encryptionInfoBase64: "abc", origin: "https://verifier.example"))
    let items = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [(Self.nameSpace, [.init("age_over_18", intentToRetain: false)])])
    let unsigned = DocRequest(itemsRequest: items)
    let payload = ReaderAuthentication.bytes(
      sessionTranscript: transcript, itemsRequestBytes: unsigned.itemsRequestBytes)
    // Signed by the reader key, but naming no certificate.
    let readerAuth = try COSESign1.sign(payload: payload, detached: true, signer: pki.readerKey)
    let request = DeviceRequest(docRequests: [
      DocRequest(itemsRequest: items, readerAuth: readerAuth)
    ])
    let error = decodingError { () throws(MdocError) in
      _ = try request.authenticateReader(
        sessionTranscript: transcript, trustAnchors: [pki.readerRoot], at: pki.clock)
    }
    #expect(error?.code == .invalidReaderSignature)
    #expect(error?.reason == "docRequests[0].readerAuth: readerAuth has no x5chain")
  }
}
