import DCCrypto
import DCHPKE
import DCTestSupport
import Testing

@Suite("HPKE round trips and refusals")
struct HPKETests {
  static let suites: [HPKE.Ciphersuite] = [
    .p256SHA256AES128GCM, .p384SHA384AES256GCM, .p521SHA512AES256GCM,
    HPKE.Ciphersuite(kem: .p256HKDFSHA256, kdf: .hkdfSHA512, aead: .aes256GCM),
  ]

  @Test("Single-shot seal and open round trip", arguments: suites)
  func roundTrip(suite: HPKE.Ciphersuite) throws {
    let skR = try ECPrivateKey(curve: suite.kem.curve)
    let message = Array("DeviceResponse".utf8)
    let (enc, ct) = try HPKE.seal(
      message, to: skR.publicKey, ciphersuite: suite, info: [1, 2, 3], authenticating: [9])
    #expect(enc.count == suite.kem.encapsulatedKeyByteCount)
    #expect(ct.count == message.count + 16)
    #expect(
      try HPKE.open(
        ct, encapsulatedKey: enc, privateKey: skR, ciphersuite: suite, info: [1, 2, 3],
        authenticating: [9])
        == message)
  }

  static func expectOpenFailure(_ code: HPKEErrorCode, _ body: () throws -> Void) {
    #expect {
      try body()
    } throws: { ($0 as? HPKEError)?.code == code }
  }

  @Test("Wrong info, AAD, key or a tampered ciphertext fail to open")
  func refusals() throws {
    let suite = HPKE.Ciphersuite.p256SHA256AES128GCM
    let skR = try ECPrivateKey(curve: .p256)
    let info = Array("SessionTranscript".utf8)
    let (enc, ct) = try HPKE.seal([1, 2, 3, 4], to: skR.publicKey, ciphersuite: suite, info: info)
    Self.expectOpenFailure(.openFailed) {
      _ = try HPKE.open(
        ct, encapsulatedKey: enc, privateKey: skR, ciphersuite: suite, info: info + [0])
    }
    Self.expectOpenFailure(.openFailed) {
      _ = try HPKE.open(
        ct, encapsulatedKey: enc, privateKey: skR, ciphersuite: suite, info: info,
        authenticating: [1])
    }
    Self.expectOpenFailure(.openFailed) {
      _ = try HPKE.open(
        ct, encapsulatedKey: enc, privateKey: try ECPrivateKey(curve: .p256), ciphersuite: suite,
        info: info)
    }
    var tampered = ct
    tampered[tampered.count - 1] ^= 0x80
    Self.expectOpenFailure(.openFailed) {
      _ = try HPKE.open(
        tampered, encapsulatedKey: enc, privateKey: skR, ciphersuite: suite, info: info)
    }
    Self.expectOpenFailure(.openFailed) {
      _ = try HPKE.open(
        Array(ct.prefix(10)), encapsulatedKey: enc, privateKey: skR, ciphersuite: suite, info: info)
    }
  }

  @Test("Invalid encapsulated keys are refused before any decryption")
  func invalidEnc() throws {
    let suite = HPKE.Ciphersuite.p256SHA256AES128GCM
    let skR = try ECPrivateKey(curve: .p256)
    let (enc, ct) = try HPKE.seal([1], to: skR.publicKey, ciphersuite: suite, info: [])
    var offCurve = enc
    offCurve[64] ^= 1
    let compressed = try ECPublicKey(x963Representation: enc, curve: .p256).compressedRepresentation
    for bad in [
      offCurve, Array(enc.dropLast()), [0x00], compressed, [UInt8](repeating: 0, count: 65),
    ] {
      Self.expectOpenFailure(.invalidEncapsulatedKey) {
        _ = try HPKE.open(ct, encapsulatedKey: bad, privateKey: skR, ciphersuite: suite, info: [])
      }
    }
  }

  @Test("Keys on the wrong curve for the KEM are refused")
  func wrongCurve() throws {
    let p384 = try ECPrivateKey(curve: .p384)
    Self.expectOpenFailure(.invalidKey) {
      _ = try HPKE.seal([1], to: p384.publicKey, ciphersuite: .p256SHA256AES128GCM, info: [])
    }
  }

  @Test("PSK inputs must match the mode")
  func pskInputs() throws {
    let skR = try ECPrivateKey(curve: .p256)
    Self.expectOpenFailure(.invalidPSKInputs) {
      _ = try HPKE.Sender(
        recipientKey: skR.publicKey, ciphersuite: .p256SHA256AES128GCM, info: [], psk: [1])
    }
    Self.expectOpenFailure(.invalidPSKInputs) {
      _ = try HPKE.Sender(
        recipientKey: skR.publicKey, ciphersuite: .p256SHA256AES128GCM, info: [], psk: [1, 2],
        pskID: [1])
    }
  }

  @Test("A multi-message context must be opened in order")
  func ordering() throws {
    let suite = HPKE.Ciphersuite.p256SHA256AES128GCM
    let skR = try ECPrivateKey(curve: .p256)
    var sender = try HPKE.Sender(recipientKey: skR.publicKey, ciphersuite: suite, info: [7])
    let first = try sender.seal([1])
    let second = try sender.seal([2])
    var recipient = try HPKE.Recipient(
      privateKey: skR, ciphersuite: suite, info: [7], encapsulatedKey: sender.encapsulatedKey)
    Self.expectOpenFailure(.openFailed) { _ = try recipient.open(second) }
    // A failed open does not advance the sequence number.
    #expect(try recipient.open(first) == [1])
    #expect(try recipient.open(second) == [2])
  }

  @Test("Export-only suites export and refuse to seal")
  func exportOnly() throws {
    let suite = HPKE.Ciphersuite(kem: .p256HKDFSHA256, kdf: .hkdfSHA256, aead: .exportOnly)
    let skR = try ECPrivateKey(curve: .p256)
    var sender = try HPKE.Sender(recipientKey: skR.publicKey, ciphersuite: suite, info: [])
    let recipient = try HPKE.Recipient(
      privateKey: skR, ciphersuite: suite, info: [], encapsulatedKey: sender.encapsulatedKey)
    #expect(
      try sender.exportSecret(context: [1], outputByteCount: 32)
        == recipient.exportSecret(context: [1], outputByteCount: 32))
    Self.expectOpenFailure(.exportOnly) { _ = try sender.seal([1]) }
  }
}
