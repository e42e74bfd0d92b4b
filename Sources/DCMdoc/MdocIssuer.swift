public import DCCBOR
import DCCOSE
public import DCCrypto
public import DCX509
import Foundation

/// Issues mdocs (ISO 18013-5 §9.1.2): for tests, the demo and development issuers.
public struct MdocIssuer: Sendable {
  /// The document signer's key.
  package let signer: any Signer
  /// The document signer certificate chain, leaf first, placed in issuerAuth's x5chain.
  package let certificateChain: [Certificate]
  /// Where the salts, decoys and digest ID order come from.
  package let random: any RandomSource

  /// Creates an issuer.
  public init(
    signer: any Signer, certificateChain: [Certificate], random: any RandomSource = SecureRandom()
  ) {
    self.signer = signer
    self.certificateChain = certificateChain
    self.random = random
  }

  /// Issues a signed mdoc bound to a device key.
  ///
  /// - Parameters:
  ///   - docType: the document type, e.g. `org.iso.18013.5.1.mDL`.
  ///   - nameSpaces: the claims, by namespace, in presentation order.
  ///   - deviceKey: the holder's public key, bound in the MSO's `deviceKeyInfo`.
  ///   - validity: the MSO's `validityInfo`.
  ///   - digestAlgorithm: the digest of the value digests (and the MSO's `digestAlgorithm`).
  ///   - decoyDigests: extra random digests per namespace, so the MSO does not reveal how many
  ///     elements exist (§9.1.2.5 allows them).
  ///   - keyAuthorizations: what the device key may sign in DeviceSigned (§9.1.2.4); nil for
  ///     none.
  ///   - status: the MSO's `status` (ISO 18013-5 second edition: a Token Status List
  ///     reference), nil for none.
  /// - Throws: `signingFailed` when the document signer cannot sign the MSO.
  public func issue(
    docType: String,
    nameSpaces: [(nameSpace: String, elements: [(identifier: String, value: CBOR)])],
    deviceKey: ECPublicKey, validity: ValidityInfo, digestAlgorithm: DigestAlgorithm = .sha256,
    decoyDigests: Int = 0, keyAuthorizations: KeyAuthorizations? = nil, status: CBOR? = nil
  ) throws(MdocError) -> IssuerSigned {
    var issued: [(nameSpace: String, items: [IssuerSignedItem])] = []
    var digests: [(nameSpace: String, digests: [(UInt64, [UInt8])])] = []
    for (nameSpace, elements) in nameSpaces {
      // Digest IDs are a random permutation so their order reveals nothing (§9.1.2.5).
      var ids = Array(0..<UInt64(elements.count + decoyDigests))
      shuffle(&ids)
      var items: [IssuerSignedItem] = []
      var nsDigests: [(UInt64, [UInt8])] = []
      for (index, element) in elements.enumerated() {
        // §9.1.2.5: the random salt is at least 16 bytes.
        let item = IssuerSignedItem(
          digestID: ids[index], random: random.bytes(count: 16),
          elementIdentifier: element.identifier,
          elementValue: element.value)
        items.append(item)
        nsDigests.append((item.digestID, item.digest(digestAlgorithm)))
      }
      for id in ids[elements.count...] {
        nsDigests.append((id, random.bytes(count: digestAlgorithm.byteCount)))
      }
      nsDigests.sort { $0.0 < $1.0 }
      issued.append((nameSpace, items))
      digests.append((nameSpace, nsDigests))
    }
    let mso = MobileSecurityObject(
      digestAlgorithm: digestAlgorithm, valueDigests: digests,
      deviceKey: COSEKey(publicKey: deviceKey),
      keyAuthorizations: keyAuthorizations, docType: docType, validityInfo: validity,
      status: status)
    let issuerAuth: COSESign1
    do {
      issuerAuth = try COSESign1.sign(
        payload: mso.encoded.tag24.encoded(),
        unprotected: [
          COSEHeaderLabel.x5chain: COSEHeaders.x5chainValue(certificateChain.map(\.derBytes))
        ],
        signer: signer)
    } catch {
      throw MdocError(.signingFailed, "issuerAuth: \(error.reason)", underlying: error)
    }
    return IssuerSigned(unchecked: issued, issuerAuth: issuerAuth, mso: mso)
  }

  /// Fisher-Yates with the injected random source.
  private func shuffle(_ values: inout [UInt64]) {
    guard values.count > 1 else { return }
    for i in stride(from: values.count - 1, to: 0, by: -1) {
      let bytes = random.bytes(count: 8)
      let r = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      values.swapAt(i, Int(r % UInt64(i + 1)))
    }
  }
}
