public import DCCBOR
import DCCOSE
public import DCCrypto
public import DCMdoc

/// The reader's side of an ISO 18013-5 session, free of any transport (§9.1.1): it reads the
/// engagement, makes the ephemeral `EReaderKey`, knows the SessionTranscript before the first
/// request (reader authentication signs it), sends the SessionEstablishment with the first
/// encrypted DeviceRequest and SessionData after, decrypts the responses, and ends the session.
///
/// Any failure closes the session; the thrown error's `statusMessage` is the SessionData to send
/// before the transport closes, nil when the mdoc already ended the session.
public struct ReaderSession: Sendable {
  /// The engagement read from the mdoc.
  public let deviceEngagement: DeviceEngagement
  /// The SessionTranscript of this session (§9.1.5.1).
  public let transcript: SessionTranscript
  /// The reader's ephemeral public key.
  package let eReaderKey: ECPublicKey
  /// The bounds on received messages.
  package let limits: SessionLimits
  /// Where the session is: `awaitingEstablishment` until the first request is sent.
  public private(set) var state: SessionState = .awaitingEstablishment

  private let eReaderKeyEncoded: EncodedCBOR
  var cipher: SessionCipher

  /// A session with an mdoc whose engagement was read, with a fresh ephemeral key on the
  /// engagement's curve (or `eReaderKey`).
  ///
  /// - Parameters:
  ///   - deviceEngagement: the mdoc's engagement, read from its QR code or NFC handover; its
  ///     EDeviceKey and bytes enter the session keys and the SessionTranscript (§9.1.5.1).
  ///   - handover: `Handover.qr` for a QR engagement, `Handover.nfc(...)` for NFC.
  ///   - eReaderKey: the reader's ephemeral private key; nil draws a fresh one on EDeviceKey's
  ///     curve (tests pass a fixed key to reproduce vectors).
  ///   - limits: the largest message accepted from the mdoc.
  /// - Throws: `invalidKey` when `eReaderKey` is on another curve than EDeviceKey (the ECDH of
  ///   the session key derivation fails).
  public init(
    deviceEngagement: DeviceEngagement, handover: CBOR, eReaderKey: ECPrivateKey? = nil,
    limits: SessionLimits = .default
  ) throws(MdocProximityError) {
    let key: ECPrivateKey
    if let eReaderKey {
      key = eReaderKey
    } else {
      key = try makeKey(deviceEngagement.eDeviceKey.curve)
    }
    // A key on another curve than EDeviceKey fails the ECDH of SessionKeys (invalidKey).
    let encoded = EncodedCBOR(encoding: COSEKey(publicKey: key.publicKey).cbor)
    let transcript = SessionTranscript(
      deviceEngagementBytes: deviceEngagement.deviceEngagementBytes,
      eReaderKeyBytes: encoded.tag24, handover: handover)
    let keys = try SessionKeys(
      privateKey: key, peerPublicKey: deviceEngagement.eDeviceKey, transcript: transcript)
    self.deviceEngagement = deviceEngagement
    self.transcript = transcript
    self.eReaderKey = key.publicKey
    self.limits = limits
    self.eReaderKeyEncoded = encoded
    self.cipher = SessionCipher(role: .reader, keys: keys)
  }

  /// A session from the `mdoc:` URI of a QR code (§8.2.2.3; the handover is null).
  public init(uri: String, eReaderKey: ECPrivateKey? = nil, limits: SessionLimits = .default)
    throws(MdocProximityError)
  {
    try self.init(
      deviceEngagement: DeviceEngagement(uri: uri), handover: Handover.qr,
      eReaderKey: eReaderKey, limits: limits)
  }

  /// A session from an NFC handover (§8.2.2.1): the engagement in the Handover Select message,
  /// and the handover `[HandoverSelect, HandoverRequest or null]` (§9.1.5.1) with the Handover
  /// Request the reader sent in a negotiated handover.
  public init(
    handoverSelect: HandoverSelect, handoverRequest: HandoverRequest? = nil,
    eReaderKey: ECPrivateKey? = nil, limits: SessionLimits = .default
  ) throws(MdocProximityError) {
    try self.init(
      deviceEngagement: handoverSelect.deviceEngagement(),
      handover: Handover.nfc(
        handoverSelect: handoverSelect.bytes, handoverRequest: handoverRequest?.bytes),
      eReaderKey: eReaderKey, limits: limits)
  }

  /// Encrypts a DeviceRequest: the SessionEstablishment the first time, a SessionData after.
  ///
  /// - Throws: `sessionClosed` after the end, `counterExhausted` after 2³²−1 messages.
  public mutating func send(request: [UInt8]) throws(MdocProximityError) -> [UInt8] {
    guard state != .closed else {
      throw MdocProximityError(.sessionClosed, "the session has ended; nothing more is sent")
    }
    let data: [UInt8]
    do {
      data = try cipher.seal(request)
    } catch {
      state = .closed
      throw error
    }
    if state == .awaitingEstablishment {
      state = .established
      return SessionEstablishment(
        eReaderKey: eReaderKey, eReaderKeyEncoded: eReaderKeyEncoded, data: data
      ).bytes
    }
    return SessionData(data: data).bytes
  }

  /// Reads a SessionData from the mdoc.
  ///
  /// - Returns: the decrypted DeviceResponse (`message`, or `finalMessage` with status 20), or
  ///   `terminated` for status 20 alone.
  /// - Throws: the failure, with the status to answer; the session is closed.
  public mutating func receive(_ message: [UInt8]) throws(MdocProximityError) -> SessionEvent {
    do throws(MdocProximityError) {
      switch state {
      case .closed:
        throw MdocProximityError(
          .sessionClosed, "a message arrived after the session ended (ISO 18013-5 §9.1.1.4)")
      case .awaitingEstablishment:
        throw MdocProximityError(
          .unexpectedMessage,
          "the mdoc sent a message before the SessionEstablishment (ISO 18013-5 §9.1.1.4)")
      case .established:
        let sessionData = try SessionData(bytes: message, limits: limits)
        if let status = sessionData.status, status != .sessionTermination {
          return try HolderSession.peerStatus(status)
        }
        guard let data = sessionData.data else {
          state = .closed
          return .terminated
        }
        let response = try cipher.open(data)
        if sessionData.status == .sessionTermination {
          state = .closed
          return .finalMessage(response)
        }
        return .message(response)
      }
    } catch {
      state = .closed
      throw error
    }
  }

  /// Ends the session normally: `{"status": 20}` to send (§9.1.1.4), or nil when it had already
  /// ended.
  public mutating func terminate() -> [UInt8]? {
    guard state != .closed else { return nil }
    state = .closed
    return SessionData(status: .sessionTermination).bytes
  }

  /// Ends the session with an error status (10 or 11) the caller decided on, such as a
  /// DeviceResponse that does not decode: the SessionData to send, or nil when it had already ended.
  package mutating func abort(with status: SessionStatus) -> [UInt8]? {
    guard state != .closed else { return nil }
    state = .closed
    return SessionData(status: status).bytes
  }
}
