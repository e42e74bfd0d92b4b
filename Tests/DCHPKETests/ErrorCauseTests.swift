import DCCrypto
import DCHPKE
import Testing

/// Errors keep their cause (issue 11) in HPKE.
struct HPKEErrorCauseTests {
  @Test func hpkeOpenWithABadEncapsulatedKeyKeepsTheCryptoError() throws {
    let key = try ECPrivateKey(curve: .p256)
    let suite = HPKE.Ciphersuite(kem: .p256HKDFSHA256, kdf: .hkdfSHA256, aead: .aes128GCM)
    do {
      _ = try HPKE.open(
        [0, 1, 2], encapsulatedKey: [4] + [UInt8](repeating: 0, count: 64), privateKey: key,
        ciphersuite: suite, info: [])
      Issue.record("an encapsulated key off the curve was accepted")
    } catch {
      #expect(error.code == .invalidEncapsulatedKey)
      #expect(error.file == "DCHPKE/DHKEM.swift")
      #expect(error.underlying is CryptoError)
    }
  }
}
