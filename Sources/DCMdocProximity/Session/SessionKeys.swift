package import DCCrypto
package import DCMdoc

/// The two session keys of ISO 18013-5 §9.1.1.5: `SKReader` encrypts what the reader sends,
/// `SKDevice` what the mdoc sends.
///
/// Each is HKDF-SHA256 (RFC 5869) of the ECDH shared secret `Zab` of the two ephemeral keys, with
/// salt `SHA-256(SessionTranscriptBytes)`, info `"SKReader"` or `"SKDevice"`, 32 bytes (an
/// AES-256-GCM key).
package struct SessionKeys: Sendable {
  /// `SKReader`, 32 bytes.
  package let skReader: [UInt8]
  /// `SKDevice`, 32 bytes.
  package let skDevice: [UInt8]

  private static let skReaderInfo = Array("SKReader".utf8)
  private static let skDeviceInfo = Array("SKDevice".utf8)

  /// Derives the keys from the shared secret `Zab` and the transcript (§9.1.1.5).
  package init(sharedSecret: [UInt8], transcript: SessionTranscript) throws(MdocProximityError) {
    // §9.1.1.5: the salt is the hash of SessionTranscriptBytes, the tag-24-wrapped transcript.
    let salt = transcript.keyDerivationSalt
    do {
      // Both keys share the HKDF-Extract step (same salt and IKM, RFC 5869 §2.2): the
      // pseudorandom key is computed once and expanded with each info (§2.3).
      let prk = HKDF.extract(.sha256, salt: salt, inputKeyMaterial: sharedSecret)
      skReader = try HKDF.expand(
        .sha256, pseudoRandomKey: prk, info: Self.skReaderInfo, outputByteCount: 32)
      skDevice = try HKDF.expand(
        .sha256, pseudoRandomKey: prk, info: Self.skDeviceInfo, outputByteCount: 32)
    } catch {
      throw MdocProximityError(
        .decryptionFailed, "session key derivation failed: \(error)",
        status: .sessionEncryptionError, underlying: error)
    }
  }

  /// Derives the keys from one side's private key and the other side's public key (§9.1.1.5).
  ///
  /// - Throws: `invalidKey` when the keys are on different curves.
  package init(privateKey: ECPrivateKey, peerPublicKey: ECPublicKey, transcript: SessionTranscript)
    throws(MdocProximityError)
  {
    let zab: [UInt8]
    do {
      zab = try privateKey.sharedSecret(with: peerPublicKey)
    } catch {
      throw MdocProximityError(
        .invalidKey,
        "ECDH of the session keys failed (\(privateKey.curve.rawValue) and \(peerPublicKey.curve.rawValue)): \(error.reason)",
        status: .sessionEncryptionError, underlying: error)
    }
    try self.init(sharedSecret: zab, transcript: transcript)
  }
}

/// The role a party plays in a session.
package enum SessionRole: Sendable, Hashable {
  /// The mdoc (the holder's device).
  case mdoc
  /// The mdoc reader.
  case reader

  /// The 8-byte identifier of the IV (§9.1.1.5): all zeros for the reader, `00…01` for the mdoc.
  var ivIdentifier: [UInt8] {
    switch self {
    case .reader: [0, 0, 0, 0, 0, 0, 0, 0]
    case .mdoc: [0, 0, 0, 0, 0, 0, 0, 1]
    }
  }
}

/// AES-256-GCM of the messages of one session for one role, with the message counters of §9.1.1.5.
///
/// The IV is the sender's 8-byte identifier followed by the 4-byte big-endian message counter,
/// which starts at 1 for the first message sent with each key and grows by one per message. The
/// counter is never sent: the receiver uses the counter it expects, so a replayed, reordered or
/// dropped message fails to authenticate. The additional data is empty.
struct SessionCipher: Sendable {
  let role: SessionRole
  private let sendKey: [UInt8]
  private let receiveKey: [UInt8]
  /// The counter of the next message sent and the next one expected; 2³² means exhausted.
  var sendCounter: UInt64 = 1
  var receiveCounter: UInt64 = 1

  init(role: SessionRole, keys: SessionKeys) {
    self.role = role
    switch role {
    case .mdoc:
      sendKey = keys.skDevice
      receiveKey = keys.skReader
    case .reader:
      sendKey = keys.skReader
      receiveKey = keys.skDevice
    }
  }

  static func iv(_ sender: SessionRole, _ counter: UInt64) -> [UInt8] {
    sender.ivIdentifier + [
      UInt8(truncatingIfNeeded: counter >> 24), UInt8(truncatingIfNeeded: counter >> 16),
      UInt8(truncatingIfNeeded: counter >> 8), UInt8(truncatingIfNeeded: counter),
    ]
  }

  /// Encrypts the next message: ciphertext followed by the 16-byte tag.
  mutating func seal(_ plaintext: [UInt8]) throws(MdocProximityError) -> [UInt8] {
    guard sendCounter <= UInt64(UInt32.max) else {
      throw MdocProximityError(
        .counterExhausted, "the message counter is exhausted (ISO 18013-5 §9.1.1.5)",
        status: .sessionEncryptionError)
    }
    do {
      // ciphertext || tag written into one buffer (the SessionData `data`, §9.1.1.5).
      let sealed = try AES.GCM.sealCombined(
        plaintext, key: sendKey, nonce: Self.iv(role, sendCounter), authenticating: [])
      sendCounter += 1
      return sealed
    } catch {
      throw MdocProximityError(
        .decryptionFailed, "AES-GCM encryption failed: \(error)",
        status: .sessionEncryptionError, underlying: error)
    }
  }

  /// Decrypts the next message from the other side with the counter it must have.
  mutating func open(_ data: [UInt8]) throws(MdocProximityError) -> [UInt8] {
    let peer: SessionRole = role == .mdoc ? .reader : .mdoc
    guard receiveCounter <= UInt64(UInt32.max) else {
      throw MdocProximityError(
        .counterExhausted, "the message counter is exhausted (ISO 18013-5 §9.1.1.5)",
        status: .sessionEncryptionError)
    }
    // Data shorter than the 16-byte tag makes no SealedBox and fails below like a wrong tag.
    do {
      let box = try AES.GCM.SealedBox(
        nonce: Self.iv(peer, receiveCounter), ciphertext: Array(data.dropLast(16)),
        tag: Array(data.suffix(16)))
      let plaintext = try AES.GCM.open(box, key: receiveKey)
      receiveCounter += 1
      return plaintext
    } catch {
      throw MdocProximityError(
        .decryptionFailed,
        "message \(receiveCounter) from the \(peer == .mdoc ? "mdoc" : "reader") does not decrypt: wrong key, tampered, replayed or out of order (ISO 18013-5 §9.1.1.5)",
        status: .sessionEncryptionError, underlying: error)
    }
  }
}
