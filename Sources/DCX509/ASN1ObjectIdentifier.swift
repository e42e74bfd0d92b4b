import DCErrors

/// An ASN.1 OBJECT IDENTIFIER, held as its arcs and written in dotted form (X.660, X.690 §8.19).
public struct ASN1ObjectIdentifier: Sendable, Hashable, CustomStringConvertible {
  /// The arcs, such as `[2, 5, 29, 19]` for id-ce-basicConstraints.
  public let arcs: [UInt64]

  /// Creates an identifier from constant arcs; X.690 §8.19.4 needs at least two, the first at
  /// most 2 (use ``init(dotted:)`` for input, which checks).
  public init(arcs: [UInt64]) {
    self.arcs = arcs
  }

  /// Parses dotted form such as `"1.0.18013.5.1.2"`.
  ///
  /// - Throws: `CertificateError.invalidObjectIdentifier` for empty arcs, non-digits, fewer than
  ///   two arcs, or a first arc above 2 (X.660 §7).
  public init(dotted: String) throws(CertificateError) {
    var arcs: [UInt64] = []
    for part in dotted.split(separator: ".", omittingEmptySubsequences: false) {
      guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
        let value = UInt64(part)
      else {
        throw CertificateError(.invalidObjectIdentifier, "'\(dotted)' is not a dotted OID")
      }
      arcs.append(value)
    }
    // X.690 §8.19.4: the first two arcs share one sub-identifier, 40 * first + second.
    guard arcs.count >= 2, arcs[0] <= 2, arcs[0] == 2 ? arcs[1] <= UInt64.max - 80 : arcs[1] < 40
    else {
      throw CertificateError(.invalidObjectIdentifier, "'\(dotted)' has invalid leading arcs")
    }
    self.arcs = arcs
  }

  /// The dotted form, such as `2.5.29.19`.
  public var dotted: String { arcs.map(String.init).joined(separator: ".") }

  /// The dotted form, or the RFC 5280 name when this library knows it.
  public var description: String {
    if let name = ASN1ObjectIdentifier.names[self] { return name }
    return dotted
  }
}

extension ASN1ObjectIdentifier {
  /// id-ce-basicConstraints (RFC 5280 §4.2.1.9).
  package static let basicConstraints = ASN1ObjectIdentifier(arcs: [2, 5, 29, 19])
  /// id-ce-keyUsage (RFC 5280 §4.2.1.3).
  package static let keyUsage = ASN1ObjectIdentifier(arcs: [2, 5, 29, 15])
  /// id-ce-extKeyUsage (RFC 5280 §4.2.1.12).
  package static let extendedKeyUsage = ASN1ObjectIdentifier(arcs: [2, 5, 29, 37])
  /// id-ce-subjectKeyIdentifier (RFC 5280 §4.2.1.2).
  package static let subjectKeyIdentifier = ASN1ObjectIdentifier(arcs: [2, 5, 29, 14])
  /// id-ce-authorityKeyIdentifier (RFC 5280 §4.2.1.1).
  package static let authorityKeyIdentifier = ASN1ObjectIdentifier(arcs: [2, 5, 29, 35])
  /// id-ce-subjectAltName (RFC 5280 §4.2.1.6).
  package static let subjectAlternativeName = ASN1ObjectIdentifier(arcs: [2, 5, 29, 17])
  /// id-ce-issuerAltName (RFC 5280 §4.2.1.7).
  package static let issuerAlternativeName = ASN1ObjectIdentifier(arcs: [2, 5, 29, 18])
  /// id-ce-cRLDistributionPoints (RFC 5280 §4.2.1.13).
  package static let crlDistributionPoints = ASN1ObjectIdentifier(arcs: [2, 5, 29, 31])
  /// id-ce-cRLNumber (RFC 5280 §5.2.3).
  package static let crlNumber = ASN1ObjectIdentifier(arcs: [2, 5, 29, 20])
  /// id-ce-cRLReasons (RFC 5280 §5.3.1).
  package static let crlReason = ASN1ObjectIdentifier(arcs: [2, 5, 29, 21])

  /// id-mdl-kp-mdlDS, the document signer key purpose (ISO 18013-5 Annex B.1.4).
  package static let mdlDocumentSigner = ASN1ObjectIdentifier(arcs: [1, 0, 18013, 5, 1, 2])
  /// id-mdl-kp-mdlReaderAuth, the mdoc reader key purpose (ISO 18013-5 Annex B.1.7).
  package static let mdlReaderAuthentication = ASN1ObjectIdentifier(arcs: [1, 0, 18013, 5, 1, 6])

  /// id-at-commonName (RFC 5280 Appendix A.1).
  public static let commonName = ASN1ObjectIdentifier(arcs: [2, 5, 4, 3])
  /// id-at-countryName (RFC 5280 Appendix A.1).
  package static let countryName = ASN1ObjectIdentifier(arcs: [2, 5, 4, 6])
  /// id-at-localityName (RFC 5280 Appendix A.1).
  package static let localityName = ASN1ObjectIdentifier(arcs: [2, 5, 4, 7])
  /// id-at-stateOrProvinceName (RFC 5280 Appendix A.1).
  package static let stateOrProvinceName = ASN1ObjectIdentifier(arcs: [2, 5, 4, 8])
  /// id-at-organizationName (RFC 5280 Appendix A.1).
  package static let organizationName = ASN1ObjectIdentifier(arcs: [2, 5, 4, 10])
  /// id-at-organizationalUnitName (RFC 5280 Appendix A.1).
  package static let organizationalUnitName = ASN1ObjectIdentifier(arcs: [2, 5, 4, 11])
  /// id-at-serialNumber (RFC 5280 Appendix A.1).
  package static let serialNumberAttribute = ASN1ObjectIdentifier(arcs: [2, 5, 4, 5])

  /// id-ecPublicKey (RFC 5480 §2.1.1).
  package static let ecPublicKey = ASN1ObjectIdentifier(arcs: [1, 2, 840, 10045, 2, 1])
  /// rsaEncryption (RFC 3279 §2.3.1).
  package static let rsaEncryption = ASN1ObjectIdentifier(arcs: [1, 2, 840, 113549, 1, 1, 1])
  /// secp256r1 (RFC 5480 §2.1.1.1).
  package static let secp256r1 = ASN1ObjectIdentifier(arcs: [1, 2, 840, 10045, 3, 1, 7])
  /// secp384r1 (RFC 5480 §2.1.1.1).
  package static let secp384r1 = ASN1ObjectIdentifier(arcs: [1, 3, 132, 0, 34])
  /// secp521r1 (RFC 5480 §2.1.1.1).
  package static let secp521r1 = ASN1ObjectIdentifier(arcs: [1, 3, 132, 0, 35])

  static let names: [ASN1ObjectIdentifier: String] = [
    .basicConstraints: "basicConstraints", .keyUsage: "keyUsage",
    .extendedKeyUsage: "extKeyUsage", .subjectKeyIdentifier: "subjectKeyIdentifier",
    .authorityKeyIdentifier: "authorityKeyIdentifier", .subjectAlternativeName: "subjectAltName",
    .issuerAlternativeName: "issuerAltName", .crlDistributionPoints: "cRLDistributionPoints",
    .crlNumber: "cRLNumber", .crlReason: "cRLReasons",
    .mdlDocumentSigner: "id-mdl-kp-mdlDS", .mdlReaderAuthentication: "id-mdl-kp-mdlReaderAuth",
    .commonName: "CN", .countryName: "C", .localityName: "L", .stateOrProvinceName: "ST",
    .organizationName: "O", .organizationalUnitName: "OU", .serialNumberAttribute: "SERIALNUMBER",
    .ecPublicKey: "id-ecPublicKey", .rsaEncryption: "rsaEncryption",
    .secp256r1: "secp256r1", .secp384r1: "secp384r1", .secp521r1: "secp521r1",
    SignatureAlgorithm.ecdsaWithSHA256.oid: "ecdsa-with-SHA256",
    SignatureAlgorithm.ecdsaWithSHA384.oid: "ecdsa-with-SHA384",
    SignatureAlgorithm.ecdsaWithSHA512.oid: "ecdsa-with-SHA512",
    ASN1ObjectIdentifier(arcs: [1, 2, 840, 113549, 1, 1, 11]): "sha256WithRSAEncryption",
    ASN1ObjectIdentifier(arcs: [1, 2, 840, 113549, 1, 1, 12]): "sha384WithRSAEncryption",
    ASN1ObjectIdentifier(arcs: [1, 2, 840, 113549, 1, 1, 13]): "sha512WithRSAEncryption",
    ASN1ObjectIdentifier(arcs: [1, 3, 101, 112]): "Ed25519",
  ]
}
