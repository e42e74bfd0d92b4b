public import DCCrypto

/// The AEAD state shared by a sender and a recipient context (RFC 9180 §5.2).
struct AEADContext: Sendable {
  let suite: HPKE.Ciphersuite
  let key: [UInt8]
  let baseNonce: [UInt8]
  /// The key schedule, for the exporter secret (derived when a secret is exported).
  let schedule: KeySchedule
  private(set) var sequenceNumber: UInt64 = 0

  init(suite: HPKE.Ciphersuite, schedule: KeySchedule) {
    self.suite = suite
    self.key = schedule.key
    self.baseNonce = schedule.baseNonce
    self.schedule = schedule
  }

  /// ComputeNonce(seq) = base_nonce XOR I2OSP(seq, Nn) (§5.2).
  func nonce() -> [UInt8] {
    var nonce = baseNonce
    var seq = sequenceNumber
    var i = nonce.count - 1
    while seq != 0 && i >= 0 {
      nonce[i] ^= UInt8(truncatingIfNeeded: seq)
      seq >>= 8
      i -= 1
    }
    return nonce
  }

  /// IncrementSeq (§5.2). Nn is 12 bytes, so the 64-bit counter is the binding limit.
  mutating func increment() throws(HPKEError) {
    guard sequenceNumber < UInt64.max else {
      throw HPKEError(.messageLimitReached, "the context has sealed its last message")
    }
    sequenceNumber += 1
  }

  mutating func seal(_ plaintext: [UInt8], aad: [UInt8]) throws(HPKEError) -> [UInt8] {
    guard suite.aead != .exportOnly else {
      throw HPKEError(.exportOnly, "an export-only context cannot seal")
    }
    let sealed: [UInt8]
    do {
      // §5.2: the ciphertext carries its tag at the end.
      sealed = try AES.GCM.sealCombined(plaintext, key: key, nonce: nonce(), authenticating: aad)
    } catch {
      throw HPKEError(.invalidParameter, "AEAD seal: \(error.reason)", underlying: error)
    }
    try increment()
    return sealed
  }

  mutating func open(_ ciphertext: [UInt8], aad: [UInt8]) throws(HPKEError) -> [UInt8] {
    guard suite.aead != .exportOnly else {
      throw HPKEError(.exportOnly, "an export-only context cannot open")
    }
    guard ciphertext.count >= AES.GCM.tagByteCount else {
      throw HPKEError(.openFailed, "ciphertext is shorter than the AEAD tag")
    }
    let split = ciphertext.count - AES.GCM.tagByteCount
    let plaintext: [UInt8]
    do {
      let box = try AES.GCM.SealedBox(
        nonce: nonce(), ciphertext: Array(ciphertext[..<split]), tag: Array(ciphertext[split...]))
      plaintext = try AES.GCM.open(box, key: key, authenticating: aad)
    } catch {
      throw HPKEError(
        .openFailed, "the ciphertext does not authenticate under this context", underlying: error)
    }
    try increment()
    return plaintext
  }

  /// Export(exporter_context, L) (§5.3).
  func export(context: [UInt8], length: Int) throws(HPKEError) -> [UInt8] {
    guard length <= 255 * suite.kdf.digest.byteCount else {
      throw HPKEError(.invalidParameter, "export length \(length) exceeds 255 × Nh")
    }
    let kdf = LabeledKDF(digest: suite.kdf.digest, suiteID: suite.suiteID)
    return try kdf.expand(
      prk: try schedule.exporterSecret(), label: "sec", info: context, length: length)
  }
}

extension HPKE {
  /// The sending side of an HPKE context (RFC 9180 §5.1.1-§5.1.4 SetupS).
  public struct Sender: Sendable {
    /// `enc`: the encapsulated key to send with the ciphertexts.
    public let encapsulatedKey: [UInt8]
    private var context: AEADContext

    /// Sets up a sender context to a recipient's public key.
    ///
    /// - Parameters:
    ///   - recipientKey: pkR, on the KEM's curve.
    ///   - info: application context bound into every key (ISO 18013-7 Annex C: the
    ///     SessionTranscript bytes).
    ///   - ciphersuite: the KEM, KDF and AEAD; the recipient must use the same.
    ///   - psk: the pre-shared key, for the PSK modes; empty otherwise.
    ///   - pskID: the identifier of `psk`, for the PSK modes; empty otherwise.
    ///   - senderKey: skS, for the auth modes.
    ///   - ephemeralKey: skE. Leave nil: a fresh key is generated. Tests pass a key from
    ///     `KEM.deriveKeyPair` to reproduce published vectors; reusing one breaks HPKE's security.
    public init(
      recipientKey: ECPublicKey, ciphersuite: Ciphersuite, info: [UInt8], psk: [UInt8] = [],
      pskID: [UInt8] = [], senderKey: ECPrivateKey? = nil, ephemeralKey: ECPrivateKey? = nil
    ) throws(HPKEError) {
      let mode = Mode(authenticated: senderKey != nil, pskGiven: !psk.isEmpty || !pskID.isEmpty)
      let ephemeral: ECPrivateKey
      if let ephemeralKey {
        ephemeral = ephemeralKey
      } else {
        do {
          ephemeral = try ECPrivateKey(curve: ciphersuite.kem.curve)
        } catch {
          throw HPKEError(
            .invalidKey, "ephemeral key generation: \(error.reason)", underlying: error)
        }
      }
      let (sharedSecret, enc) = try ciphersuite.kem.encapsulate(
        to: recipientKey, sender: senderKey, ephemeral: ephemeral)
      let schedule = try KeySchedule(
        suite: ciphersuite, mode: mode, sharedSecret: sharedSecret, info: info, psk: psk,
        pskID: pskID)
      encapsulatedKey = enc
      context = AEADContext(suite: ciphersuite, schedule: schedule)
    }

    /// Seals the next message (ContextS.Seal, §5.2): ciphertext with its 16-byte tag appended.
    public mutating func seal(_ plaintext: [UInt8], authenticating aad: [UInt8] = [])
      throws(HPKEError) -> [UInt8]
    {
      try context.seal(plaintext, aad: aad)
    }

    /// Derives a secret from the context (§5.3).
    public func exportSecret(context exporterContext: [UInt8], outputByteCount: Int)
      throws(HPKEError) -> [UInt8]
    {
      try context.export(context: exporterContext, length: outputByteCount)
    }
  }

  /// The receiving side of an HPKE context (RFC 9180 §5.1.1-§5.1.4 SetupR).
  public struct Recipient: Sendable {
    private var context: AEADContext

    /// Sets up a recipient context from the sender's encapsulated key.
    ///
    /// - Throws: `HPKEError.invalidEncapsulatedKey` when `enc` is not a valid point.
    public init(
      privateKey: ECPrivateKey, ciphersuite: Ciphersuite, info: [UInt8], encapsulatedKey: [UInt8],
      psk: [UInt8] = [], pskID: [UInt8] = [], senderKey: ECPublicKey? = nil
    ) throws(HPKEError) {
      let mode = Mode(authenticated: senderKey != nil, pskGiven: !psk.isEmpty || !pskID.isEmpty)
      let sharedSecret = try ciphersuite.kem.decapsulate(
        encapsulatedKey, recipient: privateKey, sender: senderKey)
      let schedule = try KeySchedule(
        suite: ciphersuite, mode: mode, sharedSecret: sharedSecret, info: info, psk: psk,
        pskID: pskID)
      context = AEADContext(suite: ciphersuite, schedule: schedule)
    }

    /// Opens the next message (ContextR.Open, §5.2).
    ///
    /// - Throws: `HPKEError.openFailed`; the sequence number does not advance on failure.
    public mutating func open(_ ciphertext: [UInt8], authenticating aad: [UInt8] = [])
      throws(HPKEError) -> [UInt8]
    {
      try context.open(ciphertext, aad: aad)
    }

    /// Derives a secret from the context (§5.3).
    public func exportSecret(context exporterContext: [UInt8], outputByteCount: Int)
      throws(HPKEError) -> [UInt8]
    {
      try context.export(context: exporterContext, length: outputByteCount)
    }
  }

  /// Single-shot base-mode encryption (RFC 9180 §6.1 Seal<MODE_BASE>).
  ///
  /// - Returns: `enc` and the ciphertext with its tag.
  public static func seal(
    _ plaintext: [UInt8], to recipientKey: ECPublicKey, ciphersuite: Ciphersuite, info: [UInt8],
    authenticating aad: [UInt8] = []
  ) throws(HPKEError) -> (encapsulatedKey: [UInt8], ciphertext: [UInt8]) {
    var sender = try Sender(recipientKey: recipientKey, ciphersuite: ciphersuite, info: info)
    return (sender.encapsulatedKey, try sender.seal(plaintext, authenticating: aad))
  }

  /// Single-shot base-mode decryption (RFC 9180 §6.1 Open<MODE_BASE>).
  public static func open(
    _ ciphertext: [UInt8], encapsulatedKey: [UInt8], privateKey: ECPrivateKey,
    ciphersuite: Ciphersuite,
    info: [UInt8], authenticating aad: [UInt8] = []
  ) throws(HPKEError) -> [UInt8] {
    var recipient = try Recipient(
      privateKey: privateKey, ciphersuite: ciphersuite, info: info, encapsulatedKey: encapsulatedKey
    )
    return try recipient.open(ciphertext, authenticating: aad)
  }
}
