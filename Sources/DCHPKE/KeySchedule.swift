import DCCrypto

/// The secrets a context derives from the KEM shared secret (RFC 9180 §5.1).
struct KeySchedule {
  let suite: HPKE.Ciphersuite
  let key: [UInt8]
  let baseNonce: [UInt8]
  /// `secret`, from which `exporter_secret` is expanded when a secret is exported (§5.1, §5.3).
  let secret: [UInt8]
  /// `key_schedule_context = mode || psk_id_hash || info_hash` (§5.1).
  let context: [UInt8]

  /// KeySchedule(mode, shared_secret, info, psk, psk_id) (§5.1).
  init(
    suite: HPKE.Ciphersuite, mode: HPKE.Mode, sharedSecret: [UInt8], info: [UInt8], psk: [UInt8],
    pskID: [UInt8]
  ) throws(HPKEError) {
    try KeySchedule.verifyPSKInputs(mode: mode, psk: psk, pskID: pskID)
    let kdf = LabeledKDF(digest: suite.kdf.digest, suiteID: suite.suiteID)
    // With no psk_id (the base and auth modes), psk_id_hash depends on the suite alone.
    let pskIDHash =
      pskID.isEmpty
      ? KeySchedule.emptyPSKIDHash(suite, kdf)
      : kdf.extract(salt: [], label: "psk_id_hash", ikm: pskID)
    let infoHash = kdf.extract(salt: [], label: "info_hash", ikm: info)
    let context = [mode.rawValue] + pskIDHash + infoHash
    let secret = kdf.extract(salt: sharedSecret, label: "secret", ikm: psk)
    self.suite = suite
    self.secret = secret
    self.context = context
    key = try kdf.expand(prk: secret, label: "key", info: context, length: suite.aead.keyByteCount)
    baseNonce = try kdf.expand(
      prk: secret, label: "base_nonce", info: context, length: suite.aead.nonceByteCount)
  }

  /// `exporter_secret = LabeledExpand(secret, "exp", key_schedule_context, Nh)` (§5.1), derived
  /// when a secret is exported rather than for every context, most of which never export.
  func exporterSecret() throws(HPKEError) -> [UInt8] {
    let kdf = LabeledKDF(digest: suite.kdf.digest, suiteID: suite.suiteID)
    return try kdf.expand(
      prk: secret, label: "exp", info: context, length: suite.kdf.digest.byteCount)
  }

  /// `LabeledExtract("", "psk_id_hash", "")` of every suite: with an empty psk_id the value is a
  /// constant of the suite (§5.1), computed once instead of for every context.
  private static let emptyPSKIDHashes: [HPKE.Ciphersuite: [UInt8]] = {
    var table: [HPKE.Ciphersuite: [UInt8]] = [:]
    for kem in HPKE.KEM.allCases {
      for kdf in HPKE.KDF.allCases {
        for aead in HPKE.AEAD.allCases {
          let suite = HPKE.Ciphersuite(kem: kem, kdf: kdf, aead: aead)
          table[suite] = LabeledKDF(digest: kdf.digest, suiteID: suite.suiteID)
            .extract(salt: [], label: "psk_id_hash", ikm: [])
        }
      }
    }
    return table
  }()

  private static func emptyPSKIDHash(_ suite: HPKE.Ciphersuite, _ kdf: LabeledKDF) -> [UInt8] {
    emptyPSKIDHashes[suite] ?? kdf.extract(salt: [], label: "psk_id_hash", ikm: [])
  }

  /// VerifyPSKInputs (§5.1): a PSK and its id come together, and only in the PSK modes.
  static func verifyPSKInputs(mode: HPKE.Mode, psk: [UInt8], pskID: [UInt8]) throws(HPKEError) {
    guard psk.isEmpty == pskID.isEmpty else {
      throw HPKEError(.invalidPSKInputs, "a PSK and a PSK id must be given together")
    }
    let hasPSK = !psk.isEmpty
    switch mode {
    case .base, .auth:
      if hasPSK { throw HPKEError(.invalidPSKInputs, "a PSK was given for mode \(mode)") }
    case .psk, .authPSK:
      if !hasPSK { throw HPKEError(.invalidPSKInputs, "mode \(mode) needs a PSK") }
      // §9.5: a PSK must carry at least 32 bytes of entropy.
      if psk.count < 32 { throw HPKEError(.invalidPSKInputs, "a PSK must be at least 32 bytes") }
    }
  }
}
