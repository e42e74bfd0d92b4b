import DCErrors
package import Foundation

/// The validity period of a certificate (RFC 5280 §4.1.2.5): both ends inclusive.
package struct Validity: Sendable, Hashable {
  /// The start of the validity period, inclusive.
  package let notBefore: Date
  /// The end of the validity period, inclusive.
  package let notAfter: Date

  /// Creates a validity period.
  package init(notBefore: Date, notAfter: Date) {
    self.notBefore = notBefore
    self.notAfter = notAfter
  }

  /// Whether date lies within notBefore...notAfter, both inclusive (RFC 5280 §4.1.2.5).
  package func contains(_ date: Date) -> Bool { notBefore <= date && date <= notAfter }

  /// Reads `Validity ::= SEQUENCE { notBefore Time, notAfter Time }` (RFC 5280 §4.1).
  init(node: DER.Node) throws(CertificateError) {
    var members = node.members("Validity")
    let notBefore = try members.nextAny("notBefore").timeValue()
    let notAfter = try members.nextAny("notAfter").timeValue()
    try members.finish()
    self.init(notBefore: notBefore, notAfter: notAfter)
  }
}

/// The subject's public key and the exact key bits it was read from (RFC 5280 §4.1.2.7).
package struct SubjectPublicKeyInfo: Sendable, Hashable {
  /// The key, as far as this library understands its algorithm.
  package let publicKey: CertificatePublicKey
  /// The subjectPublicKey BIT STRING contents, which RFC 7093 key identifiers hash.
  package let subjectPublicKeyBytes: [UInt8]

  /// Creates the value from a key and its bits.
  init(publicKey: CertificatePublicKey, subjectPublicKeyBytes: [UInt8]) {
    self.publicKey = publicKey
    self.subjectPublicKeyBytes = subjectPublicKeyBytes
  }

  /// Reads a `SubjectPublicKeyInfo` SEQUENCE (RFC 5280 §4.1, RFC 5480 §2).
  init(node: DER.Node) throws(CertificateError) {
    (publicKey, subjectPublicKeyBytes) = try CertificatePublicKey.read(node)
  }
}

/// The signed part of a certificate (RFC 5280 §4.1.2), apart from its wire shape.
struct TBSCertificate: Sendable {
  /// The X.509 version number, 1 to 3 (the wire value plus one, RFC 5280 §4.1.2.1).
  let version: Int
  /// The serialNumber INTEGER's content octets as encoded (RFC 5280 §4.1.2.2).
  let serialNumber: [UInt8]
  /// The TBS `signature` algorithm (RFC 5280 §4.1.2.3).
  let signature: SignatureAlgorithm
  let issuer: DistinguishedName
  let validity: Validity
  let subject: DistinguishedName
  let subjectPublicKeyInfo: SubjectPublicKeyInfo
  let extensions: [CertificateExtension]

  /// Reads a TBSCertificate SEQUENCE (RFC 5280 §4.1). `outerAlgorithm` is the Certificate's
  /// signatureAlgorithm, checked against the TBS signature field as soon as it is read.
  init(node: DER.Node, outerAlgorithm: SignatureAlgorithm) throws(CertificateError) {
    var fields = node.members("TBSCertificate")
    version = try Self.readVersion(
      fields.optional(DER.Identifier.contextSpecific(0, constructed: true)))
    serialNumber = try fields.next(DER.Identifier.integer, "serialNumber").integerBytes()
    signature = try SignatureAlgorithm(node: try fields.next(DER.Identifier.sequence, "signature"))
    // RFC 5280 §4.1.1.2: the outer field MUST contain the same algorithm identifier.
    guard signature == outerAlgorithm else {
      throw CertificateError(
        .invalidCertificate,
        "signatureAlgorithm \(outerAlgorithm) differs from TBS signature \(signature)")
    }
    issuer = try DistinguishedName(node: try fields.next(DER.Identifier.sequence, "issuer"))
    validity = try Validity(node: try fields.next(DER.Identifier.sequence, "validity"))
    subject = try DistinguishedName(node: try fields.next(DER.Identifier.sequence, "subject"))
    subjectPublicKeyInfo = try SubjectPublicKeyInfo(
      node: try fields.next(DER.Identifier.sequence, "subjectPublicKeyInfo"))
    // RFC 5280 §4.1.2.8: unique identifiers are read past; conforming CAs do not emit them.
    _ = fields.optional(DER.Identifier.contextSpecific(1, constructed: false))
    _ = fields.optional(DER.Identifier.contextSpecific(2, constructed: false))
    extensions = try Self.readExtensions(
      fields.optional(DER.Identifier.contextSpecific(3, constructed: true)), version: version)
    try fields.finish()
  }

  /// Reads `version [0] EXPLICIT Version DEFAULT v1` (RFC 5280 §4.1.2.1).
  static func readVersion(_ wrapper: DER.Node?) throws(CertificateError) -> Int {
    guard let wrapper else { return 1 }
    guard let only = wrapper.onlyChild else {
      throw CertificateError(.invalidCertificate, "version [0] must hold one INTEGER")
    }
    let value = try only.integerValue()
    guard (0...2).contains(value) else {
      throw CertificateError(.invalidCertificate, "unknown certificate version \(value + 1)")
    }
    return value + 1
  }

  /// Reads `extensions [3] EXPLICIT Extensions OPTIONAL` (RFC 5280 §4.1.2.9).
  static func readExtensions(_ wrapper: DER.Node?, version: Int) throws(CertificateError)
    -> [CertificateExtension]
  {
    guard let wrapper else { return [] }
    // RFC 5280 §4.1.2.9: extensions appear only in v3, as a non-empty SEQUENCE.
    guard version == 3 else {
      throw CertificateError(.invalidCertificate, "extensions in a version \(version) certificate")
    }
    guard let only = wrapper.onlyChild else {
      throw CertificateError(.invalidCertificate, "extensions [3] must hold one SEQUENCE")
    }
    let list = try only.expect(DER.Identifier.sequence, "Extensions")
    guard list.hasChildren else {
      throw CertificateError(.invalidCertificate, "empty Extensions")
    }
    var extensions: [CertificateExtension] = []
    for node in list.childNodes {
      extensions.append(try readExtension(node))
    }
    return extensions
  }

  /// Reads `Extension ::= SEQUENCE { extnID, critical BOOLEAN DEFAULT FALSE, extnValue }`.
  static func readExtension(_ node: DER.Node) throws(CertificateError) -> CertificateExtension {
    var members = try node.expect(DER.Identifier.sequence, "Extension").members("Extension")
    let oid = try members.next(DER.Identifier.objectIdentifier, "extnID").objectIdentifier()
    let critical = try members.optional(DER.Identifier.boolean)?.booleanValue() ?? false
    let value = try members.next(DER.Identifier.octetString, "extnValue").octetStringBytes()
    try members.finish()
    return CertificateExtension(oid: oid, critical: critical, value: value)
  }
}
