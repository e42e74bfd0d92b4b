import DCCrypto
import DCTestSupport
import Foundation
import Testing

@testable import DCHPKE

struct HPKEVector: Decodable, CustomTestStringConvertible {
  struct Encryption: Decodable {
    let sequenceNumber: Int
    let pt: String
    let aad: String
    let nonce: String
    let ct: String

    enum CodingKeys: String, CodingKey {
      case sequenceNumber = "sequence_number"
      case pt, aad, nonce, ct
    }
  }
  struct Export: Decodable {
    let exporterContext: String
    let length: Int
    let exportedValue: String

    enum CodingKeys: String, CodingKey {
      case exporterContext = "exporter_context"
      case length = "L"
      case exportedValue = "exported_value"
    }
  }
  let suiteName: String
  let modeName: String
  let mode: UInt8
  let kemID: UInt16
  let kdfID: UInt16
  let aeadID: UInt16
  let info: String
  let ikmE: String
  let skEm: String
  let pkEm: String
  let ikmR: String
  let skRm: String
  let pkRm: String
  let ikmS: String?
  let skSm: String?
  let pkSm: String?
  let psk: String?
  let pskID: String?
  let enc: String
  let sharedSecret: String
  let keyScheduleContext: String
  let key: String
  let baseNonce: String
  let exporterSecret: String
  let encryptions: [Encryption]
  let exports: [Export]

  enum CodingKeys: String, CodingKey {
    case suiteName = "suite_name"
    case modeName = "mode_name"
    case mode
    case kemID = "kem_id"
    case kdfID = "kdf_id"
    case aeadID = "aead_id"
    case info, ikmE, skEm, pkEm, ikmR, skRm, pkRm, ikmS, skSm, pkSm, psk
    case pskID = "psk_id"
    case enc
    case sharedSecret = "shared_secret"
    case keyScheduleContext = "key_schedule_context"
    case key
    case baseNonce = "base_nonce"
    case exporterSecret = "exporter_secret"
    case encryptions, exports
  }

  var testDescription: String { "\(suiteName) \(modeName)" }

  var suite: HPKE.Ciphersuite {
    get throws {
      HPKE.Ciphersuite(
        kem: try #require(HPKE.KEM(rawValue: kemID)),
        kdf: try #require(HPKE.KDF(rawValue: kdfID)),
        aead: try #require(HPKE.AEAD(rawValue: aeadID)))
    }
  }
}

let hpkeVectors: [HPKEVector] = {
  struct File: Decodable { let vectors: [HPKEVector] }
  return (try? VectorFile.decode(File.self, "hpke-rfc9180", in: .module).vectors) ?? []
}()

@Suite("HPKE RFC 9180 Appendix A vectors")
struct HPKEVectorTests {
  @Test("All published vectors are loaded")
  func loaded() {
    #expect(hpkeVectors.count == 12)
  }

  @Test("DeriveKeyPair reproduces the published key pairs", arguments: hpkeVectors)
  func deriveKeyPair(vector: HPKEVector) throws {
    let kem = try vector.suite.kem
    let skE = try kem.deriveKeyPair(inputKeyMaterial: hexBytes(vector.ikmE))
    #expect(skE.rawRepresentation == hexBytes(vector.skEm))
    #expect(skE.publicKey.x963Representation == hexBytes(vector.pkEm))
    let skR = try kem.deriveKeyPair(inputKeyMaterial: hexBytes(vector.ikmR))
    #expect(skR.rawRepresentation == hexBytes(vector.skRm))
    #expect(skR.publicKey.x963Representation == hexBytes(vector.pkRm))
    if let ikmS = vector.ikmS, let skSm = vector.skSm {
      #expect(
        try kem.deriveKeyPair(inputKeyMaterial: hexBytes(ikmS)).rawRepresentation == hexBytes(skSm))
    }
  }

  @Test("Encap and the key schedule reproduce every intermediate", arguments: hpkeVectors)
  func keySchedule(vector: HPKEVector) throws {
    let suite = try vector.suite
    let skE = try ECPrivateKey(rawRepresentation: hexBytes(vector.skEm), curve: suite.kem.curve)
    let pkR = try ECPublicKey(x963Representation: hexBytes(vector.pkRm), curve: suite.kem.curve)
    let skS = try vector.skSm.map {
      try ECPrivateKey(rawRepresentation: hexBytes($0), curve: suite.kem.curve)
    }
    let (shared, enc) = try suite.kem.encapsulate(to: pkR, sender: skS, ephemeral: skE)
    #expect(enc == hexBytes(vector.enc))
    #expect(shared == hexBytes(vector.sharedSecret))
    let schedule = try KeySchedule(
      suite: suite, mode: try #require(HPKE.Mode(rawValue: vector.mode)), sharedSecret: shared,
      info: hexBytes(vector.info), psk: hexBytes(vector.psk ?? ""),
      pskID: hexBytes(vector.pskID ?? ""))
    #expect(schedule.key == hexBytes(vector.key))
    #expect(schedule.baseNonce == hexBytes(vector.baseNonce))
    #expect(try schedule.exporterSecret() == hexBytes(vector.exporterSecret))
  }

  @Test(
    "Sender and recipient contexts reproduce every ciphertext and export", arguments: hpkeVectors)
  func contexts(vector: HPKEVector) throws {
    let suite = try vector.suite
    let curve = suite.kem.curve
    let skE = try ECPrivateKey(rawRepresentation: hexBytes(vector.skEm), curve: curve)
    let skR = try ECPrivateKey(rawRepresentation: hexBytes(vector.skRm), curve: curve)
    let skS = try vector.skSm.map {
      try ECPrivateKey(rawRepresentation: hexBytes($0), curve: curve)
    }
    let psk = hexBytes(vector.psk ?? "")
    let pskID = hexBytes(vector.pskID ?? "")
    let info = hexBytes(vector.info)
    var sender = try HPKE.Sender(
      recipientKey: skR.publicKey, ciphersuite: suite, info: info, psk: psk, pskID: pskID,
      senderKey: skS,
      ephemeralKey: skE)
    #expect(sender.encapsulatedKey == hexBytes(vector.enc))
    var recipient = try HPKE.Recipient(
      privateKey: skR, ciphersuite: suite, info: info, encapsulatedKey: sender.encapsulatedKey,
      psk: psk,
      pskID: pskID, senderKey: skS?.publicKey)
    let bySequence = Dictionary(
      uniqueKeysWithValues: vector.encryptions.map { ($0.sequenceNumber, $0) })
    let last = try #require(vector.encryptions.map(\.sequenceNumber).max())
    for seq in 0...last {
      // Sequence numbers the RFC skips are advanced with a throwaway message on both sides.
      let e = bySequence[seq]
      let pt = e.map { hexBytes($0.pt) } ?? [0]
      let aad = e.map { hexBytes($0.aad) } ?? []
      let ct = try sender.seal(pt, authenticating: aad)
      if let e { #expect(ct == hexBytes(e.ct), "seq \(seq)") }
      #expect(try recipient.open(ct, authenticating: aad) == pt, "seq \(seq)")
    }
    for export in vector.exports {
      let context = hexBytes(export.exporterContext)
      #expect(
        try sender.exportSecret(context: context, outputByteCount: export.length)
          == hexBytes(export.exportedValue))
      #expect(
        try recipient.exportSecret(context: context, outputByteCount: export.length)
          == hexBytes(export.exportedValue))
    }
  }
}
