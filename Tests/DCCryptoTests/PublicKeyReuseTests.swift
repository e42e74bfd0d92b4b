import DCCrypto
import Testing

/// Public keys read from bytes are backed by OpenSSL keys that the Linux backend reuses once
/// released: each import sets its own point, and a refused point never yields a key.
@Suite("Public key import reuse")
struct PublicKeyReuseTests {
  /// Imports and releases keys on every curve, so that released backing keys are waiting.
  private func churn(_ curve: EllipticCurve, rounds: Int = 20) throws {
    for _ in 0..<rounds {
      let point = try ECPrivateKey(curve: curve).publicKey.x963Representation
      _ = try ECPublicKey(x963Representation: point, curve: curve)
    }
  }

  @Test(
    "An imported key verifies its own signatures and no other, after many imports",
    arguments: [EllipticCurve.p256, .p384, .p521])
  func eachImportIsItsOwnKey(curve: EllipticCurve) throws {
    let message = Array("reuse".utf8)
    let signers = try (0..<12).map { _ in try ECPrivateKey(curve: curve) }
    let signatures = try signers.map { try $0.signature(for: message) }
    for round in 0..<3 {
      try churn(curve)
      // Keys imported in one go, held together: each must be its own key.
      let imported = try signers.map {
        try ECPublicKey(x963Representation: $0.publicKey.x963Representation, curve: curve)
      }
      for (index, key) in imported.enumerated() {
        #expect(key.x963Representation == signers[index].publicKey.x963Representation)
        #expect(key.isValidSignature(signatures[index], for: message), "round \(round)")
        let other = (index + 1) % signers.count
        #expect(!key.isValidSignature(signatures[other], for: message), "round \(round)")
      }
    }
  }

  @Test("A key held while others are imported and released keeps its point")
  func heldKeyIsNeverReused() throws {
    let message = Array("held".utf8)
    let signer = try ECPrivateKey(curve: .p256)
    let signature = try signer.signature(for: message)
    let held = try ECPublicKey(
      x963Representation: signer.publicKey.x963Representation, curve: .p256)
    try churn(.p256, rounds: 40)
    #expect(held.isValidSignature(signature, for: message))
    // ECDH with the held key gives the same secret as with the signer's own public key.
    let ephemeral = try ECPrivateKey(curve: .p256)
    #expect(
      try ephemeral.sharedSecret(with: held) == ephemeral.sharedSecret(with: signer.publicKey))
  }

  @Test(
    "A point off the curve is refused when released keys are waiting, and reuse goes on",
    arguments: [EllipticCurve.p256, .p384, .p521])
  func offCurveRefusedAfterReuse(curve: EllipticCurve) throws {
    let message = Array("after".utf8)
    for _ in 0..<3 {
      try churn(curve)
      var point = try ECPrivateKey(curve: curve).publicKey.x963Representation
      point[point.count - 1] ^= 0x01  // y changed: not on the curve
      let invalidPointError = #expect(throws: CryptoError.self) {
        try ECPublicKey(x963Representation: point, curve: curve)
      }
      #expect(invalidPointError?.code == .invalidPoint)
      let signer = try ECPrivateKey(curve: curve)
      let key = try ECPublicKey(
        x963Representation: signer.publicKey.x963Representation, curve: curve)
      #expect(key.isValidSignature(try signer.signature(for: message), for: message))
    }
  }
}
