public import DCCrypto
public import Foundation

/// Builds and signs X.509 v3 certificates for tests, demos and development issuers
/// (RFC 5280 §4.1; ISO 18013-5 Annex B profiles through the factory methods).
///
/// Certificates are signed with ECDSA over the signer's curve default digest (P-256 with SHA-256,
/// P-384 with SHA-384, P-521 with SHA-512, RFC 5758 §3.2) and read back with the strict parser
/// before they are returned.
public struct CertificateBuilder: Sendable {
  /// The subject name (RFC 5280 §4.1.2.6).
  public var subject: DistinguishedName
  /// The subject's public key (RFC 5280 §4.1.2.7).
  public var publicKey: ECPublicKey
  /// The serial number as unsigned big-endian bytes, at most 20 (RFC 5280 §4.1.2.2).
  public var serialNumber: [UInt8]
  /// The start of validity (RFC 5280 §4.1.2.5).
  public var notBefore: Date
  /// The end of validity (RFC 5280 §4.1.2.5).
  public var notAfter: Date
  /// Extensions in the order they will be encoded (RFC 5280 §4.2).
  public var extensions: [CertificateExtension]

  /// Creates a builder; the serial defaults to 16 random bytes (RFC 5280 §4.1.2.2 uniqueness).
  public init(
    subject: DistinguishedName, publicKey: ECPublicKey, notBefore: Date, notAfter: Date,
    serialNumber: [UInt8] = CertificateBuilder.randomSerialNumber(),
    extensions: [CertificateExtension] = []
  ) {
    self.subject = subject
    self.publicKey = publicKey
    self.notBefore = notBefore
    self.notAfter = notAfter
    self.serialNumber = serialNumber
    self.extensions = extensions
  }

  /// 16 random bytes with the top bit clear, so the INTEGER is positive (RFC 5280 §4.1.2.2).
  public static func randomSerialNumber(using random: some RandomSource = SecureRandom())
    -> [UInt8]
  {
    var bytes = random.bytes(count: 16)
    if !bytes.isEmpty {
      bytes[0] = bytes[0] & 0x7F | 0x01
    }
    return bytes
  }

  /// The RFC 7093 §2 method 1 key identifier of ``publicKey`` (SHA-256, leftmost 160 bits).
  package var subjectKeyIdentifier: [UInt8] { CertificateExtension.keyIdentifier(for: publicKey) }

  /// Signs a self-signed certificate; signer must hold the key matching ``publicKey``.
  public func selfSigned(signer: any Signer) throws(CertificateError) -> Certificate {
    guard signer.publicKey == publicKey else {
      throw CertificateError(
        .invalidBuilderInput, "self-signed certificate needs the signer of its own key")
    }
    return try sign(issuerName: subject, extensions: extensions, signer: signer)
  }

  /// Signs a certificate issued by issuer; signer must hold issuer's key. Adds an
  /// authorityKeyIdentifier from issuer's subjectKeyIdentifier when none is set (RFC 5280
  /// §4.2.1.1: MUST be included in certificates not self-signed).
  public func issued(by issuer: Certificate, signer: any Signer) throws(CertificateError)
    -> Certificate
  {
    guard issuer.publicKey == .ec(signer.publicKey) else {
      throw CertificateError(
        .invalidBuilderInput, "signer key does not match the issuer \(issuer.subject)")
    }
    var extensions = extensions
    if let keyIdentifier = issuer.subjectKeyIdentifier,
      !extensions.contains(where: { $0.oid == .authorityKeyIdentifier })
    {
      extensions.append(.authorityKeyIdentifier(keyIdentifier: keyIdentifier))
    }
    return try sign(issuerName: issuer.subject, extensions: extensions, signer: signer)
  }

  /// Signs with an arbitrary issuer name and signer, without checks tying them together; for
  /// building deliberately broken chains in tests.
  package func sign(issuerName: DistinguishedName, signer: any Signer) throws(CertificateError)
    -> Certificate
  {
    try sign(issuerName: issuerName, extensions: extensions, signer: signer)
  }

  private func sign(
    issuerName: DistinguishedName, extensions: [CertificateExtension], signer: any Signer
  ) throws(CertificateError) -> Certificate {
    guard !serialNumber.isEmpty, serialNumber.count <= 20 else {
      throw CertificateError(.invalidBuilderInput, "serial number must be 1 to 20 bytes")
    }
    guard notBefore <= notAfter else {
      throw CertificateError(.invalidBuilderInput, "notBefore is after notAfter")
    }
    let algorithm = SignatureAlgorithm.ecdsa(signer.curve.defaultDigest)
    var tbsFields: [[UInt8]] = [
      DER.explicit(0, DER.integer(2)),  // RFC 5280 §4.1.2.1: v3 because extensions follow
      DER.integer(unsignedBytes: serialNumber),
      algorithm.derEncoded,
      issuerName.derBytes,
      DER.sequence([DER.time(notBefore), DER.time(notAfter)]),
      subject.derBytes,
      publicKey.derRepresentation,
    ]
    if !extensions.isEmpty {
      tbsFields.append(DER.explicit(3, DER.sequence(extensions.map(\.derEncoded))))
    }
    let tbs = DER.sequence(tbsFields)
    let signature: ECDSASignature
    do {
      signature = try signer.signature(for: tbs)
    } catch {
      throw CertificateError(.signingFailed, "signer failed: \(error)", underlying: error)
    }
    let certificate = DER.sequence([
      tbs, algorithm.derEncoded, DER.bitString(signature.derRepresentation),
    ])
    return try Certificate(derEncoded: certificate)
  }
}

extension CertificateBuilder {
  /// An IACA root (ISO 18013-5 Annex B.1.2): CA with pathLenConstraint 0, keyUsage keyCertSign
  /// and cRLSign, a subjectKeyIdentifier and optional CRL distribution point.
  public static func iaca(
    commonName: String, country: String, organization: String? = nil,
    stateOrProvince: String? = nil, publicKey: ECPublicKey, notBefore: Date, notAfter: Date,
    crlDistributionPoint: String? = nil,
    serialNumber: [UInt8] = CertificateBuilder.randomSerialNumber()
  ) -> CertificateBuilder {
    var extensions: [CertificateExtension] = [
      .basicConstraints(isCA: true, pathLength: 0),
      .keyUsage([.keyCertSign, .cRLSign]),
      .subjectKeyIdentifier(CertificateExtension.keyIdentifier(for: publicKey)),
    ]
    if let crlDistributionPoint {
      extensions.append(.crlDistributionPoints([crlDistributionPoint]))
    }
    return CertificateBuilder(
      subject: DistinguishedName(
        commonName: commonName, organization: organization, stateOrProvince: stateOrProvince,
        country: country),
      publicKey: publicKey, notBefore: notBefore, notAfter: notAfter, serialNumber: serialNumber,
      extensions: extensions)
  }

  /// A document signer (ISO 18013-5 Annex B.1.4): keyUsage digitalSignature and critical
  /// extKeyUsage id-mdl-kp-mdlDS; issue it with ``issued(by:signer:)`` from an IACA.
  public static func documentSigner(
    commonName: String, country: String, organization: String? = nil,
    stateOrProvince: String? = nil, publicKey: ECPublicKey, notBefore: Date, notAfter: Date,
    crlDistributionPoint: String? = nil,
    serialNumber: [UInt8] = CertificateBuilder.randomSerialNumber()
  ) -> CertificateBuilder {
    endEntity(
      subject: DistinguishedName(
        commonName: commonName, organization: organization, stateOrProvince: stateOrProvince,
        country: country),
      purpose: .mdlDocumentSigner, publicKey: publicKey, notBefore: notBefore,
      notAfter: notAfter, crlDistributionPoint: crlDistributionPoint, serialNumber: serialNumber)
  }

  /// A reader authentication root (ISO 18013-5 Annex B.1.6), shaped like an IACA.
  public static func readerRoot(
    commonName: String, country: String? = nil, organization: String? = nil,
    publicKey: ECPublicKey, notBefore: Date, notAfter: Date,
    serialNumber: [UInt8] = CertificateBuilder.randomSerialNumber()
  ) -> CertificateBuilder {
    CertificateBuilder(
      subject: DistinguishedName(
        commonName: commonName, organization: organization, country: country),
      publicKey: publicKey, notBefore: notBefore, notAfter: notAfter, serialNumber: serialNumber,
      extensions: [
        .basicConstraints(isCA: true, pathLength: 0),
        .keyUsage([.keyCertSign, .cRLSign]),
        .subjectKeyIdentifier(CertificateExtension.keyIdentifier(for: publicKey)),
      ])
  }

  /// A reader authentication certificate (ISO 18013-5 Annex B.1.7): keyUsage digitalSignature
  /// and critical extKeyUsage id-mdl-kp-mdlReaderAuth.
  public static func reader(
    commonName: String, country: String? = nil, organization: String? = nil,
    publicKey: ECPublicKey, notBefore: Date, notAfter: Date,
    serialNumber: [UInt8] = CertificateBuilder.randomSerialNumber()
  ) -> CertificateBuilder {
    endEntity(
      subject: DistinguishedName(
        commonName: commonName, organization: organization, country: country),
      purpose: .mdlReaderAuthentication, publicKey: publicKey, notBefore: notBefore,
      notAfter: notAfter, crlDistributionPoint: nil, serialNumber: serialNumber)
  }

  /// An OpenID4VP verifier certificate for `x509_san_dns` (OpenID4VP 1.0 §5.9.3): the DNS name
  /// as a dNSName SAN and the common name, keyUsage digitalSignature.
  public static func openID4VPVerifier(
    dnsName: String, organization: String? = nil, publicKey: ECPublicKey, notBefore: Date,
    notAfter: Date, serialNumber: [UInt8] = CertificateBuilder.randomSerialNumber()
  ) -> CertificateBuilder {
    CertificateBuilder(
      subject: DistinguishedName(commonName: dnsName, organization: organization),
      publicKey: publicKey, notBefore: notBefore, notAfter: notAfter, serialNumber: serialNumber,
      extensions: [
        .keyUsage(.digitalSignature),
        .subjectAlternativeNames([.dnsName(dnsName)]),
        .subjectKeyIdentifier(CertificateExtension.keyIdentifier(for: publicKey)),
      ])
  }

  private static func endEntity(
    subject: DistinguishedName, purpose: ASN1ObjectIdentifier, publicKey: ECPublicKey,
    notBefore: Date, notAfter: Date, crlDistributionPoint: String?, serialNumber: [UInt8]
  ) -> CertificateBuilder {
    var extensions: [CertificateExtension] = [
      .keyUsage(.digitalSignature),
      .extendedKeyUsage([purpose]),
      .subjectKeyIdentifier(CertificateExtension.keyIdentifier(for: publicKey)),
    ]
    if let crlDistributionPoint {
      extensions.append(.crlDistributionPoints([crlDistributionPoint]))
    }
    return CertificateBuilder(
      subject: subject, publicKey: publicKey, notBefore: notBefore, notAfter: notAfter,
      serialNumber: serialNumber, extensions: extensions)
  }
}
