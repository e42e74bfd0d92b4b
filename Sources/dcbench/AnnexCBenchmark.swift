import DCAPI
import DCCBOR
import DCCOSE
import DCCrypto
import DCEncoding
import DCHPKE
import DCJOSE
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCWallet
import DCX509
import Foundation

/// A wallet holding one mDL with 30 elements and a 20 KB portrait, and a reader-authenticated
/// request for all of them.
struct AnnexCFixture {
  let iaca: Certificate
  let readerRoot: Certificate
  let deviceKey: ECPrivateKey
  let credentials: [StoredMdoc]
  let requestData: JSONValue
  let origin: WebOrigin
  let now = Date()

  init(storedCredentials: Int = 1) throws {
    let from = now.addingTimeInterval(-86_400)
    let until = now.addingTimeInterval(86_400 * 365)
    let iacaKey = try ECPrivateKey(curve: .p256)
    iaca = try CertificateBuilder.iaca(
      commonName: "Bench IACA", country: "UT", publicKey: iacaKey.publicKey, notBefore: from,
      notAfter: until
    ).selfSigned(signer: iacaKey)
    let dsKey = try ECPrivateKey(curve: .p256)
    let ds = try CertificateBuilder.documentSigner(
      commonName: "Bench DS", country: "UT", publicKey: dsKey.publicKey, notBefore: from,
      notAfter: until
    ).issued(by: iaca, signer: iacaKey)
    let readerRootKey = try ECPrivateKey(curve: .p256)
    readerRoot = try CertificateBuilder.readerRoot(
      commonName: "Bench Reader Root", publicKey: readerRootKey.publicKey, notBefore: from,
      notAfter: until
    ).selfSigned(signer: readerRootKey)
    let readerKey = try ECPrivateKey(curve: .p256)
    let reader = try CertificateBuilder.reader(
      commonName: "Bench Reader", publicKey: readerKey.publicKey, notBefore: from, notAfter: until
    ).issued(by: readerRoot, signer: readerRootKey)
    deviceKey = try ECPrivateKey(curve: .p256)
    var elements: [(identifier: String, value: CBOR)] = [
      ("portrait", .byteString((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }))
    ]
    for i in 1..<30 {
      elements.append(("element_\(i)", i.isMultiple(of: 2) ? .textString("value \(i)") : CBOR(i)))
    }
    let issuer = MdocIssuer(signer: dsKey, certificateChain: [ds])
    let validity = ValidityInfo(signed: now, validFrom: from, validUntil: until)
    let mdl = try issuer.issue(
      docType: "org.iso.18013.5.1.mDL", nameSpaces: [("org.iso.18013.5.1", elements)],
      deviceKey: deviceKey.publicKey,
      validity: validity)
    var stored = [StoredMdoc(id: "mdl", issuerSigned: mdl)]
    // Other stored credentials, of other docTypes, that the matcher must pass over.
    if storedCredentials > 1 {
      let other = try issuer.issue(
        docType: "org.example.loyalty", nameSpaces: [("org.example", [("member", "yes")])],
        deviceKey: deviceKey.publicKey,
        validity: validity)
      for i in 1..<storedCredentials {
        stored.append(StoredMdoc(id: "other-\(i)", issuerSigned: other))
      }
    }
    credentials = stored
    origin = try WebOrigin("https://verifier.example")
    let hpkeKey = try ECPrivateKey(curve: .p256)
    let info = EncryptionInfo(
      nonce: SecureRandom.bytes(count: 16), recipientPublicKey: hpkeKey.publicKey)
    let items = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        (
          "org.iso.18013.5.1",
          elements.map { ItemsRequest.Element($0.identifier, intentToRetain: false) }
        )
      ])
    let transcript = SessionTranscript(
      handover: Handover.dcapi(encryptionInfoBase64: info.base64URL, origin: origin.serialized))
    let unsigned = DocRequest(itemsRequest: items)
    let readerAuth = try ReaderAuthentication.sign(
      payload: ReaderAuthentication.bytes(
        sessionTranscript: transcript, itemsRequestBytes: unsigned.itemsRequestBytes),
      signer: readerKey, chain: [reader])
    let request = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: [
        DocRequest(itemsRequest: items, readerAuth: readerAuth)
      ]), encryptionInfo: info)
    requestData = request.data
  }

  /// The whole wallet answer: parse, reader authentication, match, consent, sign, seal.
  func answer() throws -> EncryptedResponse {
    let presentation = try AnnexCPresentation.resolve(
      data: requestData, origin: origin, credentials: credentials, readerTrustAnchors: [readerRoot],
      now: now)
    return try presentation.respond(consent: try presentation.proposedConsent()) { _ in deviceKey }
  }
}

/// Answering one Annex C request (issue 4), against the crypto it cannot avoid: two signature
/// checks (readerAuth and the reader certificate), one device signature, one HPKE key
/// generation + ECDH, AES-GCM over the response.
func annexCBenchmark(_ h: inout Harness) throws {
  let fixture = try AnnexCFixture()
  if let loop = ProcessInfo.processInfo.environment["DCBENCH_PROFILE_LOOP"], let n = Int(loop) {
    for _ in 0..<n { blackHole(try fixture.answer()) }
    return
  }
  let responseSize = try fixture.answer().cipherText.count
  let key = try ECPrivateKey(curve: .p256)
  let message = [UInt8](repeating: 1, count: 600)
  let signature = try key.signature(for: message)
  let plaintext = [UInt8](repeating: 2, count: responseSize)
  let crypto: () throws -> Void = {
    blackHole(key.publicKey.isValidSignature(signature, for: message))
    blackHole(key.publicKey.isValidSignature(signature, for: message))
    blackHole(try key.signature(for: message))
    let ephemeral = try ECPrivateKey(curve: .p256)
    blackHole(try ephemeral.sharedSecret(with: key.publicKey))
    blackHole(
      try AES.GCM.seal(
        plaintext, key: [UInt8](repeating: 3, count: 16), nonce: [UInt8](repeating: 4, count: 12)))
  }
  // Measured in batches alternating with the floor's (see `measurePair`).
  let (floor, answer, answerRatio) = try h.measurePair(
    "floor: 2 verify + 1 sign + keygen + ECDH + AES-GCM", crypto,
    "answer Annex C request (mDL, 30 elements, 20 KB portrait)", iterations: 300
  ) {
    blackHole(try fixture.answer())
  }
  print("  response: \(responseSize) bytes of ciphertext")
  if ProcessInfo.processInfo.environment["DCBENCH_DETAIL"] != nil {
    let presentation = try AnnexCPresentation.resolve(
      data: fixture.requestData, origin: fixture.origin, credentials: fixture.credentials,
      readerTrustAnchors: [fixture.readerRoot],
      now: fixture.now)
    try h.measure("  detail: resolve", iterations: 300) {
      blackHole(
        try AnnexCPresentation.resolve(
          data: fixture.requestData, origin: fixture.origin, credentials: fixture.credentials,
          readerTrustAnchors: [fixture.readerRoot],
          now: fixture.now))
    }
    try h.measure("  detail: AnnexCRequest parse", iterations: 300) {
      blackHole(try AnnexCRequest(data: fixture.requestData))
    }
    let drText = fixture.requestData["deviceRequest"]?.string ?? ""
    let eiText = fixture.requestData["encryptionInfo"]?.string ?? ""
    try h.measure("  detail: base64url decode deviceRequest", iterations: 300) {
      blackHole(try Base64URL.decode(drText))
    }
    let drBytes = try Base64URL.decode(drText)
    print("  deviceRequest \(drBytes.count) bytes")
    try h.measure("  detail: CBOR decode deviceRequest", iterations: 300) {
      blackHole(try CBOR.decode(drBytes))
    }
    try h.measure("  detail: DeviceRequest(bytes:)", iterations: 300) {
      blackHole(try DeviceRequest(bytes: drBytes))
    }
    try h.measure("  detail: EncryptionInfo", iterations: 300) {
      blackHole(try EncryptionInfo(base64URL: eiText))
    }
    let parsedRequest = try DeviceRequest(bytes: drBytes)
    let itemsBytes = parsedRequest.docRequests[0].itemsRequestBytes.bytes
    try h.measure("  detail: CBOR decode ItemsRequest (\(itemsBytes.count) B)", iterations: 300) {
      blackHole(try CBOR.decode(itemsBytes))
    }
    let itemsCBOR = try CBOR.decode(itemsBytes)
    try h.measure("  detail: ItemsRequest(cbor:)", iterations: 300) {
      blackHole(try ItemsRequest(cbor: itemsCBOR))
    }
    let outer = try CBOR.decode(drBytes)
    try h.measure("  detail: DeviceRequest(cbor:)", iterations: 300) {
      blackHole(try DeviceRequest(cbor: outer))
    }
    if let readerAuth = parsedRequest.docRequests[0].readerAuth,
      let readerDER = try readerAuth.headers.x5chain.first
    {
      try h.measure("  detail: reader Certificate(derEncoded:)", iterations: 300) {
        blackHole(try Certificate(derEncoded: readerDER))
      }
      let readerCert = try Certificate(derEncoded: readerDER)
      h.measure("  detail: chain validation (1 verify)", iterations: 300) {
        blackHole(
          CertificateValidator(
            trustAnchors: [fixture.readerRoot], policy: .mdocReaderAuthentication,
            revocation: nil
          ).validate(
            chain: [readerCert], at: fixture.now))
      }
    }
    let consent = try presentation.proposedConsent()
    let stored = fixture.credentials[0].issuerSigned
    let itemsRequest = presentation.documentRequests[0].itemsRequest
    h.measure("  detail: ItemsRequest.match", iterations: 300) {
      blackHole(itemsRequest.match(stored))
    }
    try h.measure("  detail: proposedConsent", iterations: 300) {
      blackHole(try presentation.proposedConsent())
    }
    try h.measure("  detail: validate consent", iterations: 300) {
      blackHole(try presentation.validate(consent))
    }
    let disclosed = consent.documents[0].elements
    h.measure("  detail: IssuerSigned.disclosing", iterations: 300) {
      blackHole(stored.disclosing(disclosed))
    }
    try h.measure("  detail: deviceResponse", iterations: 300) {
      blackHole(try presentation.deviceResponse(consent: consent) { _ in fixture.deviceKey })
    }
    let response = try presentation.deviceResponse(consent: consent) { _ in fixture.deviceKey }
    h.measure("  detail: DeviceResponse encode", iterations: 300) { blackHole(response.bytes) }
    try h.measure("  detail: respond", iterations: 300) {
      blackHole(try presentation.respond(consent: consent) { _ in fixture.deviceKey })
    }
    let plaintextCopy = plaintext
    let transcriptBytes = presentation.sessionTranscript.bytes
    try h.measure("  detail: HPKE seal (\(responseSize - 16) B)", iterations: 300) {
      blackHole(
        try HPKE.seal(
          plaintextCopy, to: fixture.deviceKey.publicKey,
          ciphersuite: HPKE.Ciphersuite.p256SHA256AES128GCM,
          info: transcriptBytes))
    }
    let prk = [UInt8](repeating: 5, count: 32)
    h.measure("  detail: HKDF-Extract (one of HPKE's 4)", iterations: 300) {
      blackHole(HKDF.extract(.sha256, salt: prk, inputKeyMaterial: transcriptBytes))
    }
    try h.measure("  detail: HKDF-Expand (one of HPKE's 4)", iterations: 300) {
      blackHole(
        try HKDF.expand(.sha256, pseudoRandomKey: prk, info: transcriptBytes, outputByteCount: 16))
    }
    try h.measure("  detail: keygen + ECDH", iterations: 300) {
      blackHole(try ECPrivateKey(curve: .p256).sharedSecret(with: key.publicKey))
    }
    try h.measure("  detail: AES-GCM (\(responseSize) B)", iterations: 300) {
      blackHole(
        try AES.GCM.seal(
          plaintext, key: [UInt8](repeating: 3, count: 16), nonce: [UInt8](repeating: 4, count: 12))
      )
    }
    h.measure("  detail: verify", iterations: 300) {
      blackHole(key.publicKey.isValidSignature(signature, for: message))
    }
    try h.measure("  detail: sign", iterations: 300) { blackHole(try key.signature(for: message)) }
    // Crypto the answer does but the floor leaves out: it imports (and validates) two public
    // keys, the reader certificate's and the HPKE recipient's.
    let point = key.publicKey.x963Representation
    try h.measure("  detail: public key import (not in the floor)", iterations: 300) {
      blackHole(try ECPublicKey(x963Representation: point, curve: .p256))
    }
  }
  Harness.ratio("Annex C answer / crypto, ratio of the medians", answer, over: floor)
  Harness.ratio("Annex C answer / unavoidable crypto", answerRatio, aim: 1.4)
}
