import DCCBOR
import DCCOSE
import DCCrypto
import DCTestSupport
import DCWalletTestSupport
import Foundation
import Testing

@testable import DCMdoc

/// mdocs the Longfellow zero-knowledge circuit accepts (issue 33): the circuit parses the MSO at
/// fixed shapes, so an issued mdoc must have them (longfellow-zk `lib/circuits/mdoc/`,
/// `mdoc_witness.h` and `mdoc_constants.h`; measured facts in the issue's reference notes).
@Suite("mdocs in the shape Longfellow's circuit reads")
struct LongfellowShapeTests {
  /// An mDL issued at an instant with a fraction of a second, as `Date()` always has.
  static func issued() throws -> (IssuerSigned, ECPublicKey) {
    let pki = try TestPKI()
    let device = try ECPrivateKey(curve: .p256).publicKey
    let now = pki.clock.addingTimeInterval(0.399_363)
    let mdoc = try MdocIssuer(signer: pki.dsKey, certificateChain: [pki.documentSigner]).issue(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        (
          "org.iso.18013.5.1",
          [("family_name", "Mustermann"), ("age_over_18", true), ("age_over_21", true)]
        )
      ], deviceKey: device,
      validity: ValidityInfo(
        signed: now, validFrom: now.addingTimeInterval(-86_400.25),
        validUntil: now.addingTimeInterval(86_400 * 90)),
      decoyDigests: 2)
    return (mdoc, device)
  }

  @Test("validityInfo's tdates are 20 characters, no fraction (ISO 18013-5 §9.1.2.4)")
  func wholeSecondTdates() throws {
    let (mdoc, _) = try Self.issued()
    let validity = try #require(try CBOR.decode(mdoc.mso.encoded.bytes).map?["validityInfo"]?.map)
    for key in ["signed", "validFrom", "validUntil"] {
      let item = try #require(validity[key])
      #expect(item.tag == 0)
      let text = try #require(item.tagValue?.text)
      #expect(text.utf8.count == 20 && text.hasSuffix("Z"), "\(key): \(text)")
    }
    // What the holder and verifier read back is what was signed.
    let read = try IssuerSigned(bytes: mdoc.bytes)
    #expect(read.mso.validityInfo == mdoc.mso.validityInfo)
    #expect(
      mdoc.mso.validityInfo.validFrom.timeIntervalSince1970.rounded()
        == mdoc.mso.validityInfo.validFrom.timeIntervalSince1970)
  }

  @Test(
    "issuerAuth's protected header is exactly {1: -7}, the device key exactly {1:2,-1:1,-2:x,-3:y}")
  func headerAndDeviceKey() throws {
    let (mdoc, device) = try Self.issued()
    #expect(mdoc.issuerAuth.headers.protectedBytes == [0xA1, 0x01, 0x26])
    let info = try #require(try CBOR.decode(mdoc.mso.encoded.bytes).map?["deviceKeyInfo"]?.map)
    #expect(info.count == 1)
    let key = try #require(info["deviceKey"])
    let expected: [UInt8] =
      [0xA4, 0x01, 0x02, 0x20, 0x01, 0x21, 0x58, 0x20] + device.x + [0x22, 0x58, 0x20] + device.y
    #expect(key.encoded() == expected)
  }

  @Test("sizes: 256 ≤ tagged MSO ≤ 2533 bytes, a disclosed IssuerSignedItem ≤ 119 bytes")
  func sizes() throws {
    let (mdoc, _) = try Self.issued()
    let payload = try #require(mdoc.issuerAuth.payload)
    #expect((256...2533).contains(payload.count), "\(payload.count)")
    let ageItem = try #require(
      mdoc.nameSpaces.first?.items.first { $0.elementIdentifier == "age_over_18" })
    #expect(ageItem.encoded.bytes.count <= 119, "\(ageItem.encoded.bytes.count)")
  }
}
