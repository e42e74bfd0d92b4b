package import DCCrypto

extension HPKE.KEM {
  /// The KEM's labelled KDF, with `suite_id = "KEM" || I2OSP(kem_id, 2)` (RFC 9180 §4.1).
  var labeledKDF: LabeledKDF {
    LabeledKDF(digest: digest, suiteID: Array("KEM".utf8) + i2osp(rawValue))
  }

  /// DeriveKeyPair (RFC 9180 §7.1.3): a deterministic key pair from input keying material.
  ///
  /// Rejection sampling over candidates; the range check `0 < sk < n` is the backend's.
  package func deriveKeyPair(inputKeyMaterial ikm: [UInt8]) throws(HPKEError) -> ECPrivateKey {
    let kdf = labeledKDF
    let dkpPRK = kdf.extract(salt: [], label: "dkp_prk", ikm: ikm)
    // §7.1.3: bitmask 0xFF for P-256 and P-384, 0x01 for P-521 (its scalar has 521 bits).
    let bitmask: UInt8 = curve == .p521 ? 0x01 : 0xFF
    for counter in 0...255 {
      var bytes = try kdf.expand(
        prk: dkpPRK, label: "candidate", info: [UInt8(counter)], length: curve.coordinateByteCount)
      bytes[0] &= bitmask
      if let key = try? ECPrivateKey(rawRepresentation: bytes, curve: curve) { return key }
    }
    throw HPKEError(.deriveKeyPairFailed, "no valid \(curve.rawValue) scalar in 256 candidates")
  }

  /// SerializePublicKey: the uncompressed SEC1 point (§7.1.1).
  func serialize(_ key: ECPublicKey) -> [UInt8] { key.x963Representation }

  /// DeserializePublicKey, which validates the point (§7.1.1, §7.1.4).
  func deserialize(_ enc: [UInt8]) throws(HPKEError) -> ECPublicKey {
    guard enc.count == encapsulatedKeyByteCount, enc.first == 0x04 else {
      throw HPKEError(
        .invalidEncapsulatedKey,
        "encapsulated key must be a \(encapsulatedKeyByteCount)-byte uncompressed \(curve.rawValue) point"
      )
    }
    do {
      return try ECPublicKey(x963Representation: enc, curve: curve)
    } catch {
      throw HPKEError(
        .invalidEncapsulatedKey, "encapsulated key: \(error.reason)", underlying: error)
    }
  }

  func dh(_ sk: ECPrivateKey, _ pk: ECPublicKey) throws(HPKEError) -> [UInt8] {
    do {
      return try sk.sharedSecret(with: pk)
    } catch {
      throw HPKEError(.invalidKey, "DH: \(error.reason)", underlying: error)
    }
  }

  func checkCurve(_ key: ECPublicKey, _ role: String) throws(HPKEError) {
    guard key.curve == curve else {
      throw HPKEError(
        .invalidKey, "\(role) key is \(key.curve.rawValue), the KEM needs \(curve.rawValue)")
    }
  }

  /// ExtractAndExpand(dh, kem_context) (§4.1).
  func extractAndExpand(dh: [UInt8], kemContext: [UInt8]) throws(HPKEError) -> [UInt8] {
    let kdf = labeledKDF
    let eaePRK = kdf.extract(salt: [], label: "eae_prk", ikm: dh)
    return try kdf.expand(
      prk: eaePRK, label: "shared_secret", info: kemContext, length: sharedSecretByteCount)
  }

  /// Encap / AuthEncap (§4.1): returns the shared secret and `enc`.
  func encapsulate(
    to recipient: ECPublicKey, sender: ECPrivateKey?, ephemeral: ECPrivateKey
  ) throws(HPKEError) -> (sharedSecret: [UInt8], enc: [UInt8]) {
    try checkCurve(recipient, "recipient")
    try checkCurve(ephemeral.publicKey, "ephemeral")
    var dhValue = try dh(ephemeral, recipient)
    let enc = serialize(ephemeral.publicKey)
    var kemContext = enc + serialize(recipient)
    if let sender {
      try checkCurve(sender.publicKey, "sender")
      dhValue += try dh(sender, recipient)
      kemContext += serialize(sender.publicKey)
    }
    return (try extractAndExpand(dh: dhValue, kemContext: kemContext), enc)
  }

  /// Decap / AuthDecap (§4.1).
  func decapsulate(
    _ enc: [UInt8], recipient: ECPrivateKey, sender: ECPublicKey?
  ) throws(HPKEError) -> [UInt8] {
    try checkCurve(recipient.publicKey, "recipient")
    let pkE = try deserialize(enc)
    var dhValue = try dh(recipient, pkE)
    var kemContext = enc + serialize(recipient.publicKey)
    if let sender {
      try checkCurve(sender, "sender")
      dhValue += try dh(recipient, sender)
      kemContext += serialize(sender)
    }
    return try extractAndExpand(dh: dhValue, kemContext: kemContext)
  }
}
