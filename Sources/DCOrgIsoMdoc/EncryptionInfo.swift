import DCAPI
import DCCBOR
import DCCOSE
package import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON

/// `EncryptionInfo = ["dcapi", {"nonce": bstr, "recipientPublicKey": COSE_Key}]`
/// (ISO/IEC TS 18013-7:2025 C.3.2.1), with the base64url text exactly as received: the session
/// transcript hashes that text, not a re-encoding.
package struct EncryptionInfo: Sendable, Hashable {
  /// The smallest nonce accepted, in bytes.
  package static let minimumNonceByteCount = 16

  /// The base64url text as received in `data.encryptionInfo`.
  package let base64URL: String
  /// The verifier's nonce.
  package let nonce: [UInt8]
  /// The verifier's HPKE recipient key: EC2 on P-256, validated on the curve.
  package let recipientPublicKey: ECPublicKey

  /// Reads and checks an EncryptionInfo from its base64url text.
  package init(base64URL text: String) throws(OrgIsoMdocError) {
    let bytes: [UInt8]
    do {
      bytes = try Base64URL.decode(text)
    } catch {
      throw Self.fail("encryptionInfo is not base64url: \(error.reason)", underlying: error)
    }
    let item: CBOR
    do {
      item = try CBOR.decode(bytes)
    } catch {
      throw Self.fail("encryptionInfo is not CBOR: \(error)", underlying: error)
    }
    guard let members = item.array, members.count == 2 else {
      throw Self.fail("EncryptionInfo must be a two-member array")
    }
    guard members[0].text == "dcapi" else {
      throw Self.fail("EncryptionInfo type must be \"dcapi\"")
    }
    guard let parameters = members[1].map else {
      throw Self.fail("EncryptionInfo parameters must be a map")
    }
    guard let nonce = parameters["nonce"]?.bytes else {
      throw Self.fail("EncryptionInfo has no bstr nonce")
    }
    guard nonce.count >= Self.minimumNonceByteCount else {
      throw Self.fail(
        "the nonce has \(nonce.count) bytes; at least \(Self.minimumNonceByteCount) are required")
    }
    guard let keyItem = parameters["recipientPublicKey"] else {
      throw Self.fail("EncryptionInfo has no recipientPublicKey")
    }
    let key = try Self.recipientKey(keyItem)
    base64URL = text
    self.nonce = nonce
    recipientPublicKey = key
  }

  /// An `invalidEncryptionInfo` error.
  private static func fail(
    _ why: String, underlying: (any Error & Sendable)? = nil, line: UInt = #line
  ) -> OrgIsoMdocError {
    OrgIsoMdocError(.invalidEncryptionInfo, why, underlying: underlying, line: line)
  }

  /// `recipientPublicKey`: a COSE_Key on P-256, its point validated.
  private static func recipientKey(_ keyItem: CBOR) throws(OrgIsoMdocError) -> ECPublicKey {
    do {
      let coseKey = try COSEKey(cbor: keyItem)
      guard coseKey.curve == .p256 else {
        throw Self.fail("recipientPublicKey must be on P-256 (crv 1)")
      }
      return try coseKey.publicKey()
    } catch let error as OrgIsoMdocError {
      throw error
    } catch let error as COSEError {
      throw Self.fail("recipientPublicKey: \(error.reason)", underlying: error)
    } catch {
      throw Self.fail("recipientPublicKey: \(error)", underlying: error)
    }
  }

  /// Builds an EncryptionInfo (verifier side) and encodes it.
  package init(nonce: [UInt8], recipientPublicKey: ECPublicKey) {
    let item: CBOR = [
      "dcapi",
      [
        "nonce": .byteString(nonce),
        "recipientPublicKey": COSEKey(publicKey: recipientPublicKey).cbor,
      ],
    ]
    self.nonce = nonce
    self.recipientPublicKey = recipientPublicKey
    base64URL = Base64URL.encode(CBOREncoder(mapOrder: .preserved).encode(item))
  }
}
