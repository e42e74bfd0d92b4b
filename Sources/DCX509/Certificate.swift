import DCCrypto
public import Foundation

/// An X.509 v3 certificate (RFC 5280 §4.1), keeping the bytes it was read from.
///
/// Signatures are checked over the TBSCertificate bytes exactly as received, never a re-encoding
/// (RFC 5280 §4.1.1.3). Equality and hashing use ``derBytes``.
public struct Certificate: Sendable, Hashable, CustomStringConvertible {
  /// The whole certificate as received.
  public let derBytes: [UInt8]
  /// The TBSCertificate as received: the bytes the issuer signed (RFC 5280 §4.1.1.1).
  package let tbsCertificateBytes: [UInt8]
  /// The outer signatureAlgorithm, equal to the TBS signature field (RFC 5280 §4.1.1.2).
  package let signatureAlgorithm: SignatureAlgorithm
  /// The signatureValue bits; for ECDSA a DER ECDSA-Sig-Value (RFC 5480 §2.2.3).
  package let signature: [UInt8]
  /// The X.509 version number, 1 to 3 (the wire value plus one, RFC 5280 §4.1.2.1).
  public let version: Int
  /// The serialNumber INTEGER's content octets as encoded (RFC 5280 §4.1.2.2).
  public let serialNumber: [UInt8]
  /// The issuer name (RFC 5280 §4.1.2.4).
  public let issuer: DistinguishedName
  /// The subject name (RFC 5280 §4.1.2.6).
  public let subject: DistinguishedName
  /// The start of the validity period, inclusive (RFC 5280 §4.1.2.5).
  public let notBefore: Date
  /// The end of the validity period, inclusive (RFC 5280 §4.1.2.5).
  public let notAfter: Date
  /// The subject public key (RFC 5280 §4.1.2.7).
  public let publicKey: CertificatePublicKey
  /// The subjectPublicKey BIT STRING contents, which RFC 7093 key identifiers hash.
  package let subjectPublicKeyBytes: [UInt8]
  /// Every extension in encoding order (RFC 5280 §4.1.2.9).
  public let extensions: [CertificateExtension]
  let decoded: DecodedExtensions

  /// Reads a DER certificate strictly: X.690 §10 encoding, the RFC 5280 §4.1 structure, no
  /// trailing bytes, and every extension this library understands decodes.
  public init(derEncoded bytes: [UInt8]) throws(CertificateError) {
    let (tbsNode, signatureAlgorithm, signature) = try Self.readOuter(bytes)
    let tbs = try TBSCertificate(node: tbsNode, outerAlgorithm: signatureAlgorithm)
    self.derBytes = bytes
    self.tbsCertificateBytes = Array(tbsNode.encodedBytes)
    self.signatureAlgorithm = signatureAlgorithm
    self.signature = signature
    self.version = tbs.version
    self.serialNumber = tbs.serialNumber
    self.issuer = tbs.issuer
    self.subject = tbs.subject
    self.notBefore = tbs.validity.notBefore
    self.notAfter = tbs.validity.notAfter
    self.publicKey = tbs.subjectPublicKeyInfo.publicKey
    self.subjectPublicKeyBytes = tbs.subjectPublicKeyInfo.subjectPublicKeyBytes
    self.extensions = tbs.extensions
    self.decoded = try DecodedExtensions(tbs.extensions)
  }

  /// Reads `Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }`
  /// (RFC 5280 §4.1.1) with no trailing bytes or members; the TBS node is returned unread.
  /// The CRL's `CertificateList` (RFC 5280 §5.1.1) has the same shape.
  static func readOuter(_ bytes: [UInt8], what: String = "Certificate") throws(CertificateError)
    -> (tbs: DER.Node, signatureAlgorithm: SignatureAlgorithm, signature: [UInt8])
  {
    let root = try DER.parse(bytes)
    var outer = try root.expect(DER.Identifier.sequence, what).members(what)
    let tbs = try outer.next(
      DER.Identifier.sequence, what == "Certificate" ? "tbsCertificate" : "tbsCertList")
    let algorithm = try SignatureAlgorithm(
      node: try outer.next(DER.Identifier.sequence, "signatureAlgorithm"))
    let signature = try outer.next(DER.Identifier.bitString, "signatureValue")
      .octetAlignedBitString()
    try outer.finish()
    return (tbs, algorithm, signature)
  }

  /// The validity period (RFC 5280 §4.1.2.5).
  package var validity: Validity { Validity(notBefore: notBefore, notAfter: notAfter) }

  /// The subject public key with its exact key bits (RFC 5280 §4.1.2.7).
  package var subjectPublicKeyInfo: SubjectPublicKeyInfo {
    SubjectPublicKeyInfo(publicKey: publicKey, subjectPublicKeyBytes: subjectPublicKeyBytes)
  }

  /// Reads a single PEM `CERTIFICATE` document (RFC 7468 §5).
  public init(pemEncoded text: String) throws(CertificateError) {
    let document: PEMDocument
    do {
      document = try PEMDocument(pemString: text)
    } catch {
      throw CertificateError(.invalidPEM, error.reason, underlying: error)
    }
    guard document.label == "CERTIFICATE" else {
      throw CertificateError(.invalidPEM, "PEM label is \(document.label), not CERTIFICATE")
    }
    try self.init(derEncoded: document.derBytes)
  }

  /// Reads every `CERTIFICATE` document in a PEM file, in order (a chain, leaf first by custom).
  public static func chain(fromPEM text: String) throws(CertificateError) -> [Certificate] {
    let documents: [PEMDocument]
    do {
      documents = try PEMDocument.parseAll(text)
    } catch {
      throw CertificateError(.invalidPEM, error.reason, underlying: error)
    }
    var chain: [Certificate] = []
    for (index, document) in documents.enumerated() {
      guard document.label == "CERTIFICATE" else {
        throw CertificateError(
          .invalidPEM, "PEM document \(index) is \(document.label), not CERTIFICATE")
      }
      chain.append(try Certificate(derEncoded: document.derBytes))
    }
    return chain
  }

  /// The certificate as a PEM `CERTIFICATE` document (RFC 7468 §5).
  public var pemString: String { PEMDocument(label: "CERTIFICATE", derBytes: derBytes).pemString }

  /// base64url without padding of the SHA-256 of ``derBytes``: the OpenID4VP 1.0 §5.9.3
  /// `x509_hash` client identifier value.
  public var x509Hash: String {
    Data(SHA256.hash(data: derBytes)).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// basicConstraints (RFC 5280 §4.2.1.9), if present.
  package var basicConstraints: BasicConstraints? { decoded.basicConstraints }
  /// keyUsage (RFC 5280 §4.2.1.3), if present.
  public var keyUsage: KeyUsage? { decoded.keyUsage }
  /// extKeyUsage key purposes (RFC 5280 §4.2.1.12), if present.
  package var extendedKeyUsage: [ASN1ObjectIdentifier]? { decoded.extendedKeyUsage }
  /// subjectKeyIdentifier (RFC 5280 §4.2.1.2), if present.
  public var subjectKeyIdentifier: [UInt8]? { decoded.subjectKeyIdentifier }
  /// The keyIdentifier of authorityKeyIdentifier (RFC 5280 §4.2.1.1), if present.
  public var authorityKeyIdentifier: [UInt8]? { decoded.authorityKeyIdentifier }
  /// subjectAltName entries (RFC 5280 §4.2.1.6), if present.
  public var subjectAlternativeNames: [GeneralName]? { decoded.subjectAlternativeNames }
  /// issuerAltName entries (RFC 5280 §4.2.1.7), if present.
  package var issuerAlternativeNames: [GeneralName]? { decoded.issuerAlternativeNames }
  /// Every fullName of every cRLDistributionPoints entry (RFC 5280 §4.2.1.13).
  package var crlDistributionPointNames: [GeneralName] { decoded.crlDistributionPointNames ?? [] }
  /// The URIs among the CRL distribution point names (RFC 5280 §4.2.1.13).
  package var crlDistributionPoints: [String] {
    crlDistributionPointNames.compactMap {
      if case .uri(let uri) = $0 { return uri }
      return nil
    }
  }

  /// Critical extensions this library does not process, which RFC 5280 §4.2 says make the
  /// certificate unusable for validation.
  package var unhandledCriticalExtensions: [ASN1ObjectIdentifier] {
    extensions.filter { $0.critical && !DecodedExtensions.understood.contains($0.oid) }.map(\.oid)
  }

  /// Whether issuer and subject are the same name (RFC 5280 §6.1 "self-issued").
  public var isSelfIssued: Bool { issuer == subject }

  /// Whether date lies within notBefore...notAfter, both inclusive (RFC 5280 §4.1.2.5).
  public func isValid(at date: Date) -> Bool { validity.contains(date) }

  /// The subject name, for messages.
  public var description: String { subject.description }

  /// Certificates are equal when their DER bytes are (RFC 5280 §4.1).
  public static func == (lhs: Certificate, rhs: Certificate) -> Bool {
    lhs.derBytes == rhs.derBytes
  }

  /// Hashes the DER bytes (RFC 5280 §4.1).
  public func hash(into hasher: inout Hasher) { hasher.combine(derBytes) }
}
