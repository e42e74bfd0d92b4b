import CryptoPrimitives

/// The secrets a context derives from the KEM shared secret (RFC 9180 §5.1).
struct KeySchedule {
  let key: [UInt8]
  let baseNonce: [UInt8]
  let exporterSecret: [UInt8]

  /// KeySchedule(mode, shared_secret, info, psk, psk_id) (§5.1).
  init(
    suite: HPKE.Ciphersuite, mode: HPKE.Mode, sharedSecret: [UInt8], info: [UInt8], psk: [UInt8],
    pskID: [UInt8]
  ) throws(HPKEError) {
    try KeySchedule.verifyPSKInputs(mode: mode, psk: psk, pskID: pskID)
    let kdf = LabeledKDF(digest: suite.kdf.digest, suiteID: suite.suiteID)
    let pskIDHash = kdf.extract(salt: [], label: "psk_id_hash", ikm: pskID)
    let infoHash = kdf.extract(salt: [], label: "info_hash", ikm: info)
    let context = [mode.rawValue] + pskIDHash + infoHash
    let secret = kdf.extract(salt: sharedSecret, label: "secret", ikm: psk)
    key = try kdf.expand(prk: secret, label: "key", info: context, length: suite.aead.keyByteCount)
    baseNonce = try kdf.expand(
      prk: secret, label: "base_nonce", info: context, length: suite.aead.nonceByteCount)
    exporterSecret = try kdf.expand(
      prk: secret, label: "exp", info: context, length: suite.kdf.digest.byteCount)
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
