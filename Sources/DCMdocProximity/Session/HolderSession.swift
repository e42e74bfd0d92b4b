public import DCCBOR
public import DCCrypto
public import DCMdoc

/// The mdoc's side of an ISO 18013-5 session, free of any transport (§9.1.1): it holds the
/// ephemeral `EDeviceKey` and the engagement, reads the reader's SessionEstablishment into the
/// SessionTranscript and the DeviceRequest, encrypts the responses, and ends the session.
///
/// A value: each call that reads or writes a message advances it. Any failure closes the session;
/// the thrown error's `statusMessage` is the SessionData to send before the transport closes
/// (status 10 or 11, §9.1.1.4 Table 20), nil when the reader already ended the session.
public struct HolderSession: Sendable {
  /// The engagement shown to the reader.
  public let deviceEngagement: DeviceEngagement
  /// The SessionTranscript's Handover: `Handover.qr` (null) or `Handover.nfc(...)`.
  public let handover: CBOR
  /// The bounds on received messages.
  package let limits: SessionLimits
  /// Where the session is.
  public private(set) var state: SessionState = .awaitingEstablishment
  /// The SessionTranscript, once the SessionEstablishment has been read.
  public private(set) var transcript: SessionTranscript?

  private let eDeviceKey: ECPrivateKey
  var cipher: SessionCipher?

  /// A session for an engagement already made, with its private key.
  ///
  /// - Throws: `invalidKey` when the key is not the engagement's EDeviceKey.
  public init(
    deviceEngagement: DeviceEngagement, eDeviceKey: ECPrivateKey, handover: CBOR,
    limits: SessionLimits = .default
  ) throws(MdocProximityError) {
    guard eDeviceKey.publicKey == deviceEngagement.eDeviceKey else {
      throw MdocProximityError(
        .invalidKey, "the private key is not the DeviceEngagement's EDeviceKey")
    }
    self.deviceEngagement = deviceEngagement
    self.eDeviceKey = eDeviceKey
    self.handover = handover
    self.limits = limits
  }

  /// A QR engagement (§8.2.2.3): a fresh ephemeral key on `curve` (or `eDeviceKey`), an
  /// engagement with the retrieval methods and OriginInfos, and the null QR handover.
  public static func qr(
    retrievalMethods: [DeviceRetrievalMethod], originInfos: [OriginInfo] = [],
    curve: EllipticCurve = .p256, eDeviceKey: ECPrivateKey? = nil,
    limits: SessionLimits = .default
  ) throws(MdocProximityError) -> HolderSession {
    let key: ECPrivateKey
    if let eDeviceKey { key = eDeviceKey } else { key = try makeKey(curve) }
    let engagement = DeviceEngagement(
      eDeviceKey: key.publicKey, retrievalMethods: retrievalMethods, originInfos: originInfos)
    return try HolderSession(
      deviceEngagement: engagement, eDeviceKey: key, handover: Handover.qr, limits: limits)
  }

  /// An NFC static handover (§8.2.2.1): a fresh ephemeral key (or `eDeviceKey`), an engagement
  /// without retrieval methods, the Handover Select message holding it and the BLE carrier, and
  /// the handover `[HandoverSelect, null]` (§9.1.5.1). The message is what the NFC tag serves.
  public static func nfcStaticHandover(
    ble: BLECarrierConfiguration, originInfos: [OriginInfo] = [], curve: EllipticCurve = .p256,
    eDeviceKey: ECPrivateKey? = nil, limits: SessionLimits = .default
  ) throws(MdocProximityError) -> (session: HolderSession, handoverSelect: HandoverSelect) {
    let key: ECPrivateKey
    if let eDeviceKey { key = eDeviceKey } else { key = try makeKey(curve) }
    let engagement = DeviceEngagement(eDeviceKey: key.publicKey, originInfos: originInfos)
    let select = try HandoverSelect.staticHandover(deviceEngagement: engagement, ble: ble)
    let session = try HolderSession(
      deviceEngagement: engagement, eDeviceKey: key,
      handover: Handover.nfc(handoverSelect: select.bytes, handoverRequest: nil), limits: limits)
    return (session, select)
  }

  /// The `mdoc:` URI of the engagement, for the QR code.
  public var uri: String { deviceEngagement.uri }

  /// Reads a message from the reader: the SessionEstablishment first, SessionData after.
  ///
  /// - Returns: the decrypted DeviceRequest (`message`, or `finalMessage` when the reader ended
  ///   the session in the same message), or `terminated` for status 20.
  /// - Throws: the failure, with the status to answer (its `statusMessage`); the session is
  ///   closed. `sessionClosed` after the session ended; `peerReportedError` for status 10 or 11;
  ///   `unknownStatus` for a status outside Table 20.
  public mutating func receive(_ message: [UInt8]) throws(MdocProximityError) -> SessionEvent {
    do throws(MdocProximityError) {
      switch state {
      case .closed:
        throw MdocProximityError(
          .sessionClosed, "a message arrived after the session ended (ISO 18013-5 §9.1.1.4)")
      case .awaitingEstablishment:
        return try establish(message)
      case .established:
        return try receiveData(message)
      }
    } catch {
      state = .closed
      throw error
    }
  }

  private mutating func establish(_ message: [UInt8]) throws(MdocProximityError) -> SessionEvent {
    let establishment: SessionEstablishment
    do {
      establishment = try SessionEstablishment(bytes: message, limits: limits)
    } catch {
      // A reader that gives up before establishing sends a status alone (§9.1.1.4).
      if error.code == .malformed, let data = try? SessionData(bytes: message, limits: limits),
        data.data == nil, let status = data.status
      {
        return try Self.peerStatus(status)
      }
      throw error
    }
    // A key on another curve than EDeviceKey fails the ECDH of SessionKeys: invalidKey, status 10.
    let transcript = SessionTranscript(
      deviceEngagementBytes: deviceEngagement.deviceEngagementBytes,
      eReaderKeyBytes: establishment.eReaderKeyBytes, handover: handover)
    let keys = try SessionKeys(
      privateKey: eDeviceKey, peerPublicKey: establishment.eReaderKey, transcript: transcript)
    var cipher = SessionCipher(role: .mdoc, keys: keys)
    let request = try cipher.open(establishment.data)
    self.cipher = cipher
    self.transcript = transcript
    state = .established
    return .message(request)
  }

  private mutating func receiveData(_ message: [UInt8]) throws(MdocProximityError) -> SessionEvent {
    let sessionData = try SessionData(bytes: message, limits: limits)
    if let status = sessionData.status, status != .sessionTermination {
      return try Self.peerStatus(status)
    }
    guard let data = sessionData.data else {
      state = .closed
      return .terminated
    }
    guard var cipher else {
      throw MdocProximityError(.sessionClosed, "the session has no keys")
    }
    let request = try cipher.open(data)
    self.cipher = cipher
    if sessionData.status == .sessionTermination {
      state = .closed
      return .finalMessage(request)
    }
    return .message(request)
  }

  /// The event for a status from the other side: 20 ends the session, 10 and 11 are errors.
  static func peerStatus(_ status: SessionStatus) throws(MdocProximityError) -> SessionEvent {
    guard status == .sessionTermination else {
      throw MdocProximityError(
        .peerReportedError,
        "the other side ended the session with status \(status.rawValue) (ISO 18013-5 Table 20)")
    }
    return .terminated
  }

  /// Encrypts a DeviceResponse into a SessionData, with status 20 when `endingSession` (the
  /// session is then closed).
  ///
  /// - Throws: `unexpectedMessage` before the SessionEstablishment, `sessionClosed` after the
  ///   end, `counterExhausted` after 2³²−1 messages.
  public mutating func send(response: [UInt8], endingSession: Bool = false)
    throws(MdocProximityError) -> [UInt8]
  {
    guard state != .closed else {
      throw MdocProximityError(.sessionClosed, "the session has ended; nothing more is sent")
    }
    guard state == .established, var cipher else {
      throw MdocProximityError(
        .unexpectedMessage, "no response can be sent before the SessionEstablishment")
    }
    do {
      let data = try cipher.seal(response)
      self.cipher = cipher
      if endingSession { state = .closed }
      return SessionData(data: data, status: endingSession ? .sessionTermination : nil).bytes
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
  /// DeviceRequest that does not decode: the SessionData to send, or nil when it had already ended.
  package mutating func abort(with status: SessionStatus) -> [UInt8]? {
    guard state != .closed else { return nil }
    state = .closed
    return SessionData(status: status).bytes
  }
}

/// A fresh key, its failure typed.
func makeKey(_ curve: EllipticCurve) throws(MdocProximityError) -> ECPrivateKey {
  do {
    return try ECPrivateKey(curve: curve)
  } catch {
    throw MdocProximityError(
      .invalidKey, "no ephemeral key could be made: \(error.reason)", underlying: error)
  }
}
