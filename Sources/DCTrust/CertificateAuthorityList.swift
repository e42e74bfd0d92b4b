import DCCBOR
import DCCOSE
package import DCCrypto
public import DCX509
public import Foundation

// VICAL (ISO/IEC 18013-5 Annex C.1.7, the AAMVA VICAL) and RICAL (ISO/IEC 18013-5 second
// edition Annex F): a COSE_Sign1 (RFC 9052 §4.2) with the CBOR list attached as its payload and
// the provider's certificate chain in `x5chain` (RFC 9360 §2). The member names follow the CDDL
// as independent implementations read it: multipaz `org.multipaz.mdoc.vical.SignedVical` and
// `org.multipaz.mdoc.rical.SignedRical` (openwallet-foundation/multipaz), and isomdl's
// `definitions/vical` (spruceid).

/// The limits of a VICAL or RICAL (docs/LIMITS.md).
package enum CertificateAuthorityListLimits {
  /// The most bytes a list may have; larger input is refused before it is decoded.
  package static let maximumLength = 4 * 1024 * 1024
  /// The most certificateInfos a list may have.
  package static let maximumEntries = 4096
  /// The most docType (VICAL) strings one entry may have.
  package static let maximumDocTypes = 64
}

extension TrustedList {
  /// Reads a VICAL (ISO/IEC 18013-5 Annex C.1.7), verifies its COSE_Sign1 signature with the
  /// first `x5chain` certificate, and checks that certificate is one of `operatorCertificates`
  /// or chains to one of them at `time`. Each certificateInfo becomes an
  /// ``TrustServiceType/mdocIssuingAuthority`` entity anchored at its IACA certificate.
  public static func verifyingVICAL(
    _ bytes: [UInt8], operatorCertificates: [Certificate], at time: Date
  ) throws(TrustError) -> TrustedList {
    try CertificateAuthorityList.verify(
      bytes, kind: .vical, operatorCertificates: operatorCertificates, at: time)
  }

  /// Reads a RICAL (ISO/IEC 18013-5 second edition Annex F) the same way; each certificateInfo
  /// becomes an ``TrustServiceType/mdocReaderAuthority`` entity. A RICAL past its `notAfter` is
  /// refused as expired.
  public static func verifyingRICAL(
    _ bytes: [UInt8], operatorCertificates: [Certificate], at time: Date
  ) throws(TrustError) -> TrustedList {
    try CertificateAuthorityList.verify(
      bytes, kind: .rical, operatorCertificates: operatorCertificates, at: time)
  }

  /// Signs a VICAL or RICAL naming `entities` (their first certificate each), for development
  /// files and tests: `x5chain` unprotected for a VICAL and protected for a RICAL, as multipaz
  /// writes them.
  package static func signingCertificateAuthorityList(
    kind: TrustedListKind, provider: String, issued: Date, nextUpdate: Date?, issueID: Int?,
    entities: [TrustedEntity], signer: any Signer, signerChain: [Certificate]
  ) throws(TrustError) -> [UInt8] {
    guard kind == .vical || kind == .rical else {
      throw TrustError(.unsupported, "\(kind.rawValue) is not a VICAL or RICAL")
    }
    let vical = kind == .vical
    var infos: [CBOR] = []
    for entity in entities {
      guard let certificate = entity.certificates.first else { continue }
      var info: CBORMap = [
        "certificate": .byteString(certificate.derBytes),
        "serialNumber": .tagged(2, .byteString(Array(certificate.serialNumber.drop { $0 == 0 }))),
        "ski": .byteString(certificate.subjectKeyIdentifier ?? []),
      ]
      if vical {
        info["docType"] = .array(
          (entity.docTypes.isEmpty ? ["org.iso.18013.5.1.mDL"] : entity.docTypes).map {
            .textString($0)
          })
        info["issuingAuthority"] = .textString(entity.name)
      } else {
        info["name"] = .textString(entity.name)
      }
      infos.append(.map(info))
    }
    var list: CBORMap = [
      "version": "1.0", (vical ? "vicalProvider" : "provider"): .textString(provider),
      "date": CBOR.dateTime(issued), "certificateInfos": .array(infos),
    ]
    if !vical { list["type"] = "org.iso.18013.5.1.reader" }
    if let nextUpdate { list["nextUpdate"] = CBOR.dateTime(nextUpdate) }
    if let issueID { list[vical ? "vicalIssueID" : "id"] = CBOR(issueID) }
    let chain = COSEHeaders.x5chainValue(signerChain.map(\.derBytes))
    do {
      let message = try COSESign1.sign(
        payload: CBOR.map(list).encoded(),
        protected: vical ? CBORMap() : [COSEHeaderLabel.x5chain: chain],
        unprotected: vical ? [COSEHeaderLabel.x5chain: chain] : CBORMap(), signer: signer)
      return message.cbor().encoded()
    } catch {
      throw TrustError(.invalidSignature, "signing failed: \(error.reason)", underlying: error)
    }
  }
}

/// The reading and verification both list kinds share.
package enum CertificateAuthorityList {
  static func verify(
    _ bytes: [UInt8], kind: TrustedListKind, operatorCertificates: [Certificate], at time: Date
  ) throws(TrustError) -> TrustedList {
    guard bytes.count <= CertificateAuthorityListLimits.maximumLength else {
      throw TrustError(
        .tooLarge,
        "\(kind.rawValue) of \(bytes.count) bytes exceeds "
          + "\(CertificateAuthorityListLimits.maximumLength)")
    }
    let message: COSESign1
    do {
      message = try COSESign1(bytes: bytes)
    } catch {
      throw TrustError(.malformed, "not a COSE_Sign1: \(error.reason)", underlying: error)
    }
    let signer = try verifySignature(message, operatorCertificates: operatorCertificates, at: time)
    guard let payload = message.payload else {
      throw TrustError(.malformed, "the \(kind.rawValue) COSE_Sign1 has no attached payload")
    }
    return try reading(
      payload: payload, kind: kind, signer: signer, digest: SHA256.hash(data: bytes), at: time)
  }

  /// Reads a list payload whose signature was checked (the fuzz target reads it directly).
  package static func reading(
    payload: [UInt8], kind: TrustedListKind, signer: Certificate, digest: [UInt8], at time: Date
  ) throws(TrustError) -> TrustedList {
    let decoded: CBOR
    do {
      decoded = try CBOR.decode(payload)
    } catch {
      throw TrustError(.malformed, "the \(kind.rawValue) payload is not CBOR: \(error.reason)")
    }
    guard let map = decoded.map else {
      throw TrustError(.malformed, "the \(kind.rawValue) payload is not a CBOR map")
    }
    return try readList(map, kind: kind, signer: signer, digest: digest, at: time)
  }

  /// Checks the signer (the first `x5chain` certificate) against the operator certificates, then
  /// the COSE_Sign1 signature with its key (RFC 9052 §4.4, RFC 9360 §2).
  static func verifySignature(
    _ message: COSESign1, operatorCertificates: [Certificate], at time: Date
  ) throws(TrustError) -> Certificate {
    let chain: [Certificate]
    do {
      chain = try message.headers.x5chain.map { (der: [UInt8]) throws(CertificateError) in
        try Certificate(derEncoded: der)
      }
    } catch let error as CertificateError {
      throw TrustError(.malformed, "x5chain: \(error.reason)", underlying: error)
    } catch {
      throw TrustError(.malformed, "x5chain: \(error)")
    }
    guard let signer = chain.first else {
      throw TrustError(.malformed, "the list has no x5chain naming its signer")
    }
    guard signer.isValid(at: time) else {
      throw TrustError(.expired, "the list signer \(signer.subject) is not valid at this time")
    }
    if !operatorCertificates.contains(signer) {
      let result = CertificateValidator(trustAnchors: operatorCertificates, revocation: .current)
        .validate(chain: chain, at: time)
      if let reason = result.reason {
        throw TrustError(
          .untrustedSigner,
          "the list signer \(signer.subject) is not an operator certificate "
            + "and does not chain to one: \(reason)")
      }
    }
    guard case .ec(let key) = signer.publicKey else {
      throw TrustError(.unsupported, "the list signer's key \(signer.publicKey) is not EC")
    }
    do {
      try message.verify(publicKey: key)
    } catch  where error.code == .unsupportedAlgorithm {
      throw TrustError(.unsupported, error.reason, underlying: error)
    } catch {
      throw TrustError(.invalidSignature, error.reason, underlying: error)
    }
    return signer
  }

  static func readList(
    _ map: CBORMap, kind: TrustedListKind, signer: Certificate, digest: [UInt8], at time: Date
  ) throws(TrustError) -> TrustedList {
    let vical = kind == .vical
    let version = try text(map, "version")
    // Annex C.1.7.1 / Annex F: version "1.0"; a later major version may change the structure.
    guard version.hasPrefix("1.") else {
      throw TrustError(.unsupported, "\(kind.rawValue) version \(version) is not 1.x")
    }
    let provider = try text(map, vical ? "vicalProvider" : "provider")
    let issued = try date(map, "date")
    let nextUpdate = try optionalDate(map, "nextUpdate")
    if !vical, let notAfter = try optionalDate(map, "notAfter"), time > notAfter {
      throw TrustError(.expired, "the RICAL of \(provider) is not valid after its notAfter")
    }
    var sequence: Int?
    if let issue = map[vical ? "vicalIssueID" : "id"] {
      guard let value = issue.uint64, value <= UInt64(Int.max) else {
        throw TrustError(.malformed, "\(vical ? "vicalIssueID" : "id") is not a uint")
      }
      sequence = Int(value)
    }
    guard let infos = map["certificateInfos"]?.array else {
      throw TrustError(.malformed, "certificateInfos is missing or not an array")
    }
    guard infos.count <= CertificateAuthorityListLimits.maximumEntries else {
      throw TrustError(
        .tooLarge,
        "\(infos.count) certificateInfos exceed \(CertificateAuthorityListLimits.maximumEntries)")
    }
    var entities: [TrustedEntity] = []
    for (index, info) in infos.enumerated() {
      entities.append(try entity(info, index: index, vical: vical))
    }
    return TrustedList(
      kind: kind, operatorName: provider, sequenceNumber: sequence, issued: issued,
      nextUpdate: nextUpdate, entities: entities, signer: signer, digest: digest)
  }

  /// One CertificateInfo: the certificate, its serialNumber (tag 2 biguint) and ski, which must
  /// agree with the certificate, and (VICAL) at least one docType.
  static func entity(_ item: CBOR, index: Int, vical: Bool) throws(TrustError) -> TrustedEntity {
    guard let info = item.map else {
      throw TrustError(.malformed, "certificateInfos[\(index)] is not a map")
    }
    let certificate: Certificate
    do {
      certificate = try Certificate(derEncoded: try bytes(info, "certificate"))
    } catch let error as TrustError {
      throw error
    } catch {
      throw TrustError(.malformed, "certificateInfos[\(index)].certificate: \(error)")
    }
    guard let serial = info["serialNumber"], serial.tag == 2, let value = serial.tagValue?.bytes
    else {
      throw TrustError(.malformed, "certificateInfos[\(index)].serialNumber is not a biguint")
    }
    // The list's serial and ski restate the certificate's; a mismatch is refused rather than
    // guessing which one the provider meant (a choice the CDDL leaves open).
    guard
      value.drop(while: { $0 == 0 }).elementsEqual(
        certificate.serialNumber.drop(while: { $0 == 0 }))
    else {
      throw TrustError(
        .malformed, "certificateInfos[\(index)].serialNumber differs from the certificate's")
    }
    let ski = try bytes(info, "ski")
    if let own = certificate.subjectKeyIdentifier, own != ski {
      throw TrustError(.malformed, "certificateInfos[\(index)].ski differs from the certificate's")
    }
    var docTypes: [String] = []
    if vical {
      guard let list = info["docType"]?.array, !list.isEmpty,
        list.count <= CertificateAuthorityListLimits.maximumDocTypes
      else {
        throw TrustError(
          .malformed, "certificateInfos[\(index)].docType is not [+ tstr] (at most 64)")
      }
      for member in list {
        guard let text = member.text else {
          throw TrustError(.malformed, "certificateInfos[\(index)].docType holds a non-text item")
        }
        docTypes.append(text)
      }
    }
    let named = info[vical ? "issuingAuthority" : "name"]?.text
    let name = named ?? certificate.subject.commonName ?? certificate.subject.description
    return TrustedEntity(
      name: name, serviceType: vical ? .mdocIssuingAuthority : .mdocReaderAuthority,
      certificates: [certificate], isGranted: true, docTypes: docTypes)
  }

  static func text(_ map: CBORMap, _ key: String) throws(TrustError) -> String {
    guard let value = map[key]?.text else {
      throw TrustError(.malformed, "\(key) is missing or not a text string")
    }
    return value
  }

  static func bytes(_ map: CBORMap, _ key: String) throws(TrustError) -> [UInt8] {
    guard let value = map[key]?.bytes else {
      throw TrustError(.malformed, "\(key) is missing or not a byte string")
    }
    return value
  }

  /// A `tdate` (RFC 8949 §3.4.1 tag 0), as ISO/IEC 18013-5 §7.2.1 uses it.
  static func date(_ map: CBORMap, _ key: String) throws(TrustError) -> Date {
    guard let value = try optionalDate(map, key) else {
      throw TrustError(.malformed, "\(key) is missing")
    }
    return value
  }

  static func optionalDate(_ map: CBORMap, _ key: String) throws(TrustError) -> Date? {
    guard let item = map[key] else { return nil }
    guard item.tag == 0, let value = item.dateTime else {
      throw TrustError(.malformed, "\(key) is not a tdate (tag 0 date-time text)")
    }
    return value
  }
}
