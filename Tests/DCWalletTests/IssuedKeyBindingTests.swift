import DCCBOR
import DCCOSE
import DCCrypto
import DCMdoc
import DCWalletTestSupport
import Foundation
import Testing

@testable import DCWallet

/// Issue 13: a credential response's mdocs are matched to the wallet's proof keys by comparing
/// the MSO's COSE_Key bytes with each key's point, without importing the COSE_Key; the answer
/// must be `boundKey == key` in every case, malformed keys included.
@Suite("issued credential key binding")
struct IssuedKeyBindingTests {
  static let validity = ValidityInfo(
    signed: Date(timeIntervalSince1970: 1_780_000_000),
    validFrom: Date(timeIntervalSince1970: 1_780_000_000),
    validUntil: Date(timeIntervalSince1970: 1_811_536_000))

  /// An mdoc whose MSO binds `deviceKey` (its issuer signature is not what is tested here).
  static func mdoc(binding deviceKey: COSEKey) throws -> ParsedIssuedCredential {
    let mso = MobileSecurityObject(
      digestAlgorithm: .sha256, valueDigests: [], deviceKey: deviceKey,
      docType: "org.iso.18013.5.1.mDL", validityInfo: validity)
    let signer = try ECPrivateKey(curve: .p256)
    let auth = try COSESign1.sign(
      payload: CBOREncoder().encode(mso.encoded.tag24), protected: [1: CBOR(-7)],
      signer: signer)
    let issuerSigned = try IssuerSigned(nameSpaces: [], issuerAuth: auth)
    return .mdoc(issuerSigned, bytes: issuerSigned.bytes)
  }

  static func coseKey(curve: Int, x: [UInt8], y: [UInt8]) throws -> COSEKey {
    let map: CBORMap = [1: CBOR(2), -1: CBOR(curve), -2: .byteString(x), -3: .byteString(y)]
    return try COSEKey(cbor: .map(map))
  }

  /// `keyBinding` answers as `boundKey ==` does.
  static func expectAgreement(_ parsed: ParsedIssuedCredential, _ keys: [ECPublicKey]) {
    let binds = parsed.keyBinding
    for key in keys { #expect(binds(key) == (parsed.boundKey == key)) }
  }

  @Test("the bound key matches; another key, or one of another curve, does not")
  func boundAndOthers() throws {
    let own = try ECPrivateKey(curve: .p256).publicKey
    let other = try ECPrivateKey(curve: .p256).publicKey
    let p384 = try ECPrivateKey(curve: .p384).publicKey
    let parsed = try Self.mdoc(binding: COSEKey(publicKey: own))
    let binds = parsed.keyBinding
    #expect(binds(own))
    #expect(!binds(other))
    #expect(!binds(p384))
    Self.expectAgreement(parsed, [own, other, p384])
    // The same coordinates under another curve identifier bind nothing.
    let relabelled = try Self.mdoc(binding: Self.coseKey(curve: 2, x: own.x, y: own.y))
    #expect(!relabelled.keyBinding(own))
    Self.expectAgreement(relabelled, [own, other])
  }

  @Test("a COSE_Key without its leading zero octet (RFC 9053 §7.1.1) binds no key")
  func strippedLeadingZero() throws {
    // About one P-256 key in 256 has an x coordinate starting with a zero octet.
    var found: ECPublicKey?
    for _ in 0..<5000 {
      let key = try ECPrivateKey(curve: .p256).publicKey
      if key.x.first == 0 {
        found = key
        break
      }
    }
    let key = try #require(found)
    let parsed = try Self.mdoc(
      binding: Self.coseKey(curve: 1, x: Array(key.x.dropFirst()), y: key.y))
    #expect(parsed.boundKey == nil)
    #expect(!parsed.keyBinding(key))
    Self.expectAgreement(parsed, [key])
  }

  @Test("verify given the expected device key gives what verify without it gives")
  func expectedDeviceKey() throws {
    let pki = try TestPKI()
    let key = try ECPrivateKey(curve: .p256).publicKey
    let other = try ECPrivateKey(curve: .p256).publicKey
    let issuerSigned = try pki.issue(deviceKey: key)
    let chain = try issuerSigned.documentSignerChain()
    let plain = try issuerSigned.verify(
      trustAnchors: [pki.iaca], at: pki.clock, documentSignerChain: chain)
    #expect(plain.deviceKey == key)
    for expected in [key, other] {
      let given = try issuerSigned.verify(
        trustAnchors: [pki.iaca], at: pki.clock, documentSignerChain: chain,
        expectedDeviceKey: expected)
      #expect(given.deviceKey == key)
      #expect(given.documentSigner == plain.documentSigner)
    }
    // The COSE_Key comparison itself: its own key only.
    #expect(issuerSigned.mso.deviceKey.isEncoding(of: key))
    #expect(!issuerSigned.mso.deviceKey.isEncoding(of: other))
  }
}
