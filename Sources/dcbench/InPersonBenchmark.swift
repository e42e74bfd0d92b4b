import DCCBOR
import DCCOSE
import DCCrypto
import DCMdoc
import DCMdocProximity
import DCVerifier
import DCWallet
import Foundation

/// The holder's side of one ISO 18013-5 in-person session (issue 14): read the reader's
/// SessionEstablishment (ECDH with EDeviceKey, SKReader/SKDevice by HKDF, AES-GCM open of the
/// DeviceRequest), resolve the mDL request for 30 elements with a 20 KB portrait, build the
/// DeviceResponse with a deviceSignature, and encrypt it into a SessionData. The engagement (the
/// ephemeral key shown in the QR code) is made before the session and is not counted.
///
/// Its crypto floor: one ECDH, the two HKDF-SHA256 derivations (with the SHA-256 salt over the
/// transcript), AES-256-GCM open of the request and seal of the response, and one ECDSA P-256
/// device signature.
func inPersonBenchmark(_ h: inout Harness) throws {
  let fixture = try AnnexCFixture()
  let stored = fixture.credentials[0]
  let items = ItemsRequest(
    docType: stored.issuerSigned.mso.docType,
    nameSpaces: stored.issuerSigned.nameSpaces.map { nameSpace, issued in
      (nameSpace, issued.map { ItemsRequest.Element($0.elementIdentifier, intentToRetain: false) })
    })
  let eDeviceKey = try ECPrivateKey(curve: .p256)
  let initial = try HolderSession.qr(
    retrievalMethods: [.ble(try BLEOptions(peripheralServerUUID: SecureRandom.bytes(count: 16)))],
    eDeviceKey: eDeviceKey)
  var reader = try ReaderSession(deviceEngagement: initial.deviceEngagement, handover: Handover.qr)
  let request = try ProximityReader.makeRequest(
    itemsRequests: [items], sessionTranscript: reader.transcript)
  let establishment = try reader.send(request: request.bytes)
  let deviceKey = fixture.deviceKey

  func session() throws -> [UInt8] {
    var holder = initial
    guard case .message(let requestBytes) = try holder.receive(establishment),
      let transcript = holder.transcript
    else { throw CommandLineFailure("no request") }
    let presentation = try ProximityPresentation.resolve(
      deviceRequest: requestBytes, sessionTranscript: transcript, credentials: fixture.credentials,
      readerTrustAnchors: [fixture.readerRoot], now: fixture.now)
    let response = try presentation.resolved.deviceResponse(
      consent: try presentation.resolved.proposedConsent()
    ) { _ in .signature(deviceKey) }
    return try holder.send(response: response.bytes)
  }
  let message = try session()
  var check = reader
  guard case .message(let responseBytes) = try check.receive(message) else {
    throw CommandLineFailure("the response does not decrypt")
  }
  let verified = try ProximityReader.verify(
    response: responseBytes, request: request, sessionTranscript: reader.transcript,
    eReaderKey: nil, issuerTrustAnchors: [fixture.iaca], now: fixture.now)
  guard verified.documents.first?.elements.count == 30 else {
    throw CommandLineFailure("the response does not carry the 30 elements")
  }

  // The floor, sized like the session: the request's and the response's ciphertexts.
  let peer = try ECPrivateKey(curve: .p256)
  let transcriptBytes = reader.transcript.taggedBytes
  let requestSize = request.bytes.count
  let responseSize = responseBytes.count
  let key = [UInt8](repeating: 3, count: 32)
  let nonce = [UInt8](repeating: 4, count: 12)
  let sealedRequest = try AES.GCM.seal(
    [UInt8](repeating: 1, count: requestSize), key: key, nonce: nonce)
  let responsePlain = [UInt8](repeating: 2, count: responseSize)
  let toSign = [UInt8](repeating: 5, count: 300)
  let floor: () throws -> Void = {
    let secret = try eDeviceKey.sharedSecret(with: peer.publicKey)
    let salt = SHA256.hash(data: transcriptBytes)
    blackHole(
      try HKDF.deriveKey(
        .sha256, inputKeyMaterial: secret, salt: salt, info: Array("SKReader".utf8),
        outputByteCount: 32))
    blackHole(
      try HKDF.deriveKey(
        .sha256, inputKeyMaterial: secret, salt: salt, info: Array("SKDevice".utf8),
        outputByteCount: 32))
    blackHole(try AES.GCM.open(sealedRequest, key: key))
    blackHole(try AES.GCM.seal(responsePlain, key: key, nonce: nonce))
    blackHole(try deviceKey.signature(for: toSign))
  }
  let (floorTime, sessionTime, sessionRatio) = try h.measurePair(
    "floor: ECDH + 2 HKDF + AES-GCM open/seal + ECDSA sign", floor,
    "holder session (establish, mDL 30 elements + portrait, reply)", iterations: 300
  ) {
    blackHole(try session())
  }
  print("  request \(requestSize) bytes, response \(responseSize) bytes (plaintext)")
  Harness.ratio("holder session / crypto floor, ratio of the medians", sessionTime, over: floorTime)
  Harness.ratio("holder session / crypto floor", sessionRatio, aim: 1.5)
  if ProcessInfo.processInfo.environment["DCBENCH_DETAIL"] != nil {
    var established = initial
    guard case .message(let requestBytes) = try established.receive(establishment),
      let transcript = established.transcript
    else { throw CommandLineFailure("no request") }
    try h.measure("  detail: establish (parse, ECDH, HKDF, open)", iterations: 300) {
      var holder = initial
      blackHole(try holder.receive(establishment))
    }
    try h.measure("  detail: SessionEstablishment(bytes:)", iterations: 300) {
      blackHole(try SessionEstablishment(bytes: establishment))
    }
    try h.measure("  detail: resolve", iterations: 300) {
      blackHole(
        try ProximityPresentation.resolve(
          deviceRequest: requestBytes, sessionTranscript: transcript,
          credentials: fixture.credentials, readerTrustAnchors: [fixture.readerRoot],
          now: fixture.now))
    }
    let presentation = try ProximityPresentation.resolve(
      deviceRequest: requestBytes, sessionTranscript: transcript, credentials: fixture.credentials,
      readerTrustAnchors: [fixture.readerRoot], now: fixture.now)
    let consent = try presentation.resolved.proposedConsent()
    try h.measure("  detail: DeviceResponse (sign)", iterations: 300) {
      blackHole(
        try presentation.resolved.deviceResponse(consent: consent) { _ in .signature(deviceKey) })
    }
    let response = try presentation.resolved.deviceResponse(consent: consent) { _ in
      .signature(deviceKey)
    }
    h.measure("  detail: DeviceResponse.bytes", iterations: 300) {
      blackHole(response.bytes)
    }
    try h.measure("  detail: send (seal)", iterations: 300) {
      var holder = established
      blackHole(try holder.send(response: response.bytes))
    }
  }
}

/// A benchmark setup that did not produce what it measures.
struct CommandLineFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
