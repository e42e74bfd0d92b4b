public import DCCrypto
public import Foundation

/// One entry of a CRL's revokedCertificates (RFC 5280 §5.1.2.6).
public struct RevokedCertificate: Sendable, Hashable {
  /// The revoked certificate's serialNumber content octets, as ``Certificate/serialNumber``.
  public let serialNumber: [UInt8]
  /// When the revocation took effect (RFC 5280 §5.1.2.6 revocationDate).
  public let revocationDate: Date
  /// The CRLReason code (RFC 5280 §5.3.1), if the entry has the reasonCode extension.
  public let reasonCode: Int?

  /// Creates an entry (for building CRLs).
  package init(serialNumber: [UInt8], revocationDate: Date, reasonCode: Int? = nil) {
    self.serialNumber = serialNumber
    self.revocationDate = revocationDate
    self.reasonCode = reasonCode
  }
}

/// An X.509 v2 certificate revocation list (RFC 5280 §5), keeping the bytes it was read from.
///
/// Read strictly with the same DER reader as certificates; the signature is checked over the
/// TBSCertList bytes as received (RFC 5280 §5.1.1.3). A CRL with a critical extension this
/// library does not process (delta CRLs, issuing distribution points, indirect CRL entries) reads,
/// but is never used to decide a certificate's status (RFC 5280 §5.2, §5.3).
public struct CertificateRevocationList: Sendable, Hashable {
  /// The most bytes a CRL may have; larger input is refused before it is parsed.
  package static let maximumLength = 4 * 1024 * 1024
  /// The most revokedCertificates entries a CRL may have.
  package static let maximumEntries = 65_536

  /// The whole CRL as received.
  public let derBytes: [UInt8]
  /// The TBSCertList as received: the bytes the issuer signed (RFC 5280 §5.1.1.1).
  package let tbsCertListBytes: [UInt8]
  /// The signature algorithm, equal to the TBS signature field (RFC 5280 §5.1.1.2).
  package let signatureAlgorithm: SignatureAlgorithm
  /// The signatureValue bits (RFC 5280 §5.1.1.3).
  package let signature: [UInt8]
  /// The CRL issuer's name (RFC 5280 §5.1.2.3).
  public let issuer: DistinguishedName
  /// When this CRL was issued (RFC 5280 §5.1.2.4).
  public let thisUpdate: Date
  /// When the next CRL will be issued (RFC 5280 §5.1.2.5); a CRL is not current after it.
  public let nextUpdate: Date?
  /// The revoked certificates, in encoding order (RFC 5280 §5.1.2.6).
  public let revokedCertificates: [RevokedCertificate]
  /// The cRLNumber content octets (RFC 5280 §5.2.3), if present.
  public let crlNumber: [UInt8]?
  /// The keyIdentifier of the authorityKeyIdentifier extension (RFC 5280 §5.2.1), if present.
  public let authorityKeyIdentifier: [UInt8]?
  /// Critical CRL or entry extensions this library does not process (RFC 5280 §5.2, §5.3).
  package let unhandledCriticalExtensions: [ASN1ObjectIdentifier]
  let entriesBySerial: [[UInt8]: Int]

  /// Reads a DER CertificateList (RFC 5280 §5.1) strictly, with no trailing bytes.
  public init(derEncoded bytes: [UInt8]) throws(CertificateError) {
    guard bytes.count <= Self.maximumLength else {
      throw CertificateError(
        .invalidCRL, "CRL of \(bytes.count) bytes exceeds \(Self.maximumLength)")
    }
    let (tbsNode, algorithm, signature) = try Certificate.readOuter(bytes, what: "CertificateList")
    let tbs = try TBSCertList(node: tbsNode, outerAlgorithm: algorithm)
    derBytes = bytes
    tbsCertListBytes = Array(tbsNode.encodedBytes)
    signatureAlgorithm = algorithm
    self.signature = signature
    issuer = tbs.issuer
    thisUpdate = tbs.thisUpdate
    nextUpdate = tbs.nextUpdate
    revokedCertificates = tbs.entries
    crlNumber = tbs.crlNumber
    authorityKeyIdentifier = tbs.authorityKeyIdentifier
    unhandledCriticalExtensions = tbs.unhandledCritical
    var index: [[UInt8]: Int] = [:]
    for (position, entry) in tbs.entries.enumerated() where index[entry.serialNumber] == nil {
      index[entry.serialNumber] = position
    }
    entriesBySerial = index
  }

  /// Reads a PEM `X509 CRL` document (RFC 7468 §6).
  public init(pemEncoded text: String) throws(CertificateError) {
    let document: PEMDocument
    do {
      document = try PEMDocument(pemString: text)
    } catch {
      throw CertificateError(.invalidPEM, error.reason, underlying: error)
    }
    guard document.label == "X509 CRL" else {
      throw CertificateError(.invalidPEM, "PEM label is \(document.label), not X509 CRL")
    }
    try self.init(derEncoded: document.derBytes)
  }

  /// Reads DER, or PEM `X509 CRL` text when the bytes start with `-----BEGIN`.
  public init(derOrPEM bytes: [UInt8]) throws(CertificateError) {
    if bytes.starts(with: Array("-----BEGIN".utf8)) {
      guard bytes.count <= Self.maximumLength * 2,
        let text = String(validating: bytes, as: UTF8.self)
      else {
        throw CertificateError(.invalidPEM, "PEM CRL is not UTF-8 text of at most 8 MiB")
      }
      try self.init(pemEncoded: text)
    } else {
      try self.init(derEncoded: bytes)
    }
  }

  /// The CRL as a PEM `X509 CRL` document (RFC 7468 §6).
  public var pemString: String { PEMDocument(label: "X509 CRL", derBytes: derBytes).pemString }

  /// The entry for a serial number, if this CRL lists it (RFC 5280 §6.3.3(i)).
  public func entry(forSerialNumber serialNumber: [UInt8]) -> RevokedCertificate? {
    entriesBySerial[serialNumber].map { revokedCertificates[$0] }
  }

  /// Whether the CRL is current at `time`: issued at or before it and not past its nextUpdate
  /// (RFC 5280 §6.3.3(a)(2); a CRL without nextUpdate is current from thisUpdate on).
  public func isCurrent(at time: Date) -> Bool {
    guard thisUpdate <= time else { return false }
    guard let nextUpdate else { return true }
    return time <= nextUpdate
  }

  /// Whether `issuer` issued this CRL: its subject is the CRL issuer name, its keyUsage (if any)
  /// has cRLSign, the authorityKeyIdentifier (if both have one) matches, and its key verifies the
  /// ECDSA signature (RFC 5280 §6.3.3(f), (g)).
  public func isSignatureValid(issuedBy issuer: Certificate) -> Bool {
    checkIssuer(issuer) == nil
  }

  /// Why `issuer` did not issue this CRL, or nil when it did (RFC 5280 §6.3.3(b), (f), (g)).
  package func checkIssuer(_ issuer: Certificate) -> String? {
    guard issuer.subject == self.issuer else {
      return "the CRL issuer is \(self.issuer), not \(issuer.subject)"
    }
    if let usage = issuer.keyUsage, !usage.contains(.cRLSign) {
      return "\(issuer.subject) signed a CRL but its keyUsage lacks cRLSign"
    }
    if let authority = authorityKeyIdentifier, let subject = issuer.subjectKeyIdentifier,
      authority != subject
    {
      return "the CRL's authorityKeyIdentifier does not match \(issuer.subject)"
    }
    switch verifySignature(
      algorithm: signatureAlgorithm, signature: signature, signed: tbsCertListBytes,
      key: issuer.publicKey)
    {
    case .valid: return nil
    case .invalid: return "the CRL signature does not verify with the key of \(issuer.subject)"
    case .unsupported(let detail): return "the CRL signature cannot be verified: \(detail)"
    }
  }
}

/// TBSCertList (RFC 5280 §5.1.2), read field by field.
struct TBSCertList {
  var issuer: DistinguishedName
  var thisUpdate: Date
  var nextUpdate: Date?
  var entries: [RevokedCertificate] = []
  var crlNumber: [UInt8]?
  var authorityKeyIdentifier: [UInt8]?
  var unhandledCritical: [ASN1ObjectIdentifier] = []

  init(node: DER.Node, outerAlgorithm: SignatureAlgorithm) throws(CertificateError) {
    var fields = node.members("TBSCertList")
    // RFC 5280 §5.1.2.1: version, if present, MUST be v2 (1); it is required with extensions.
    let version = try fields.optional(DER.Identifier.integer)?.integerValue()
    guard version == nil || version == 1 else {
      throw CertificateError(.invalidCRL, "CRL version \(version ?? 0) is not v2")
    }
    let signature = try SignatureAlgorithm(
      node: try fields.next(DER.Identifier.sequence, "signature"))
    // RFC 5280 §5.1.1.2: the outer field MUST contain the same algorithm identifier.
    guard signature == outerAlgorithm else {
      throw CertificateError(
        .invalidCRL, "signatureAlgorithm \(outerAlgorithm) differs from TBS signature \(signature)")
    }
    issuer = try DistinguishedName(node: try fields.next(DER.Identifier.sequence, "issuer"))
    thisUpdate = try fields.nextAny("thisUpdate").timeValue()
    nextUpdate =
      try
      (fields.optional(DER.Identifier.utcTime)
      ?? fields.optional(DER.Identifier.generalizedTime))?.timeValue()
    if let list = fields.optional(DER.Identifier.sequence) {
      try readEntries(list)
    }
    if let wrapper = fields.optional(DER.Identifier.contextSpecific(0, constructed: true)) {
      guard version == 1 else {
        throw CertificateError(.invalidCRL, "crlExtensions in a CRL that is not v2")
      }
      let extensions = try TBSCertificate.readExtensions(wrapper, version: 3)
      try readCRLExtensions(extensions)
    }
    try fields.finish()
  }

  /// revokedCertificates (RFC 5280 §5.1.2.6): serial, revocationDate, optional entry extensions.
  private mutating func readEntries(_ list: DER.Node) throws(CertificateError) {
    // RFC 5280 §5.1.2.6: when there are no revoked certificates the list MUST be absent.
    guard list.hasChildren else {
      throw CertificateError(.invalidCRL, "empty revokedCertificates")
    }
    for node in list.childNodes {
      guard entries.count < CertificateRevocationList.maximumEntries else {
        throw CertificateError(
          .invalidCRL,
          "more than \(CertificateRevocationList.maximumEntries) revoked certificates")
      }
      var members = try node.expect(DER.Identifier.sequence, "revokedCertificate")
        .members("revokedCertificate")
      let serial = try members.next(DER.Identifier.integer, "userCertificate").integerBytes()
      let date = try members.nextAny("revocationDate").timeValue()
      var reason: Int?
      if let list = members.optional(DER.Identifier.sequence) {
        guard list.hasChildren else {
          throw CertificateError(.invalidCRL, "empty crlEntryExtensions")
        }
        for extensionNode in list.childNodes {
          let ext = try TBSCertificate.readExtension(extensionNode)
          if ext.oid == .crlReason {
            reason = try Self.reasonCode(ext.value)
          } else if ext.critical, !unhandledCritical.contains(ext.oid) {
            // RFC 5280 §5.3: certificateIssuer (indirect CRLs) and any other critical entry
            // extension make the CRL unusable here.
            unhandledCritical.append(ext.oid)
          }
        }
      }
      try members.finish()
      entries.append(
        RevokedCertificate(serialNumber: serial, revocationDate: date, reasonCode: reason))
    }
  }

  /// CRLReason ::= ENUMERATED (RFC 5280 §5.3.1).
  private static func reasonCode(_ value: [UInt8]) throws(CertificateError) -> Int {
    let node = try DER.parse(value)
    guard node.identifier == 0x0A, node.content.count == 1,
      let code = node.content.first, code <= 10, code != 7
    else {
      throw CertificateError(.invalidCRL, "reasonCode is not a CRLReason")
    }
    return Int(code)
  }

  private mutating func readCRLExtensions(_ extensions: [CertificateExtension])
    throws(CertificateError)
  {
    for (index, ext) in extensions.enumerated() {
      // RFC 5280 §5.2: a CRL MUST NOT include more than one instance of an extension.
      guard !extensions[..<index].contains(where: { $0.oid == ext.oid }) else {
        throw CertificateError(.invalidCRL, "CRL extension \(ext.oid) appears twice")
      }
      switch ext.oid {
      case .crlNumber:
        crlNumber = try DER.parse(ext.value).integerBytes()
      case .authorityKeyIdentifier:
        var members = try DER.parse(ext.value).expect(DER.Identifier.sequence, "AKI")
          .members("AuthorityKeyIdentifier")
        authorityKeyIdentifier = members.optional(0x80).map { Array($0.content) }
        _ = members.optional(0xA1)
        _ = members.optional(0x82)
        try members.finish()
      default:
        // deltaCRLIndicator (§5.2.4) and issuingDistributionPoint (§5.2.5) are critical and not
        // processed: such a CRL is never used to decide a status.
        if ext.critical { unhandledCritical.append(ext.oid) }
      }
    }
  }
}

extension CertificateRevocationList {
  /// Signs a v2 CRL issued by `issuer` (RFC 5280 §5.1) with cRLNumber and authorityKeyIdentifier
  /// (§5.2.1, §5.2.3: conforming CAs MUST include both); for development files and tests.
  package static func build(
    issuer: Certificate, signer: any Signer, thisUpdate: Date, nextUpdate: Date?,
    revoked: [RevokedCertificate], crlNumber: Int = 1
  ) throws(CertificateError) -> CertificateRevocationList {
    let algorithm = SignatureAlgorithm.ecdsa(signer.curve.defaultDigest)
    var fields: [[UInt8]] = [
      DER.integer(1), algorithm.derEncoded, issuer.subject.derBytes, DER.time(thisUpdate),
    ]
    if let nextUpdate { fields.append(DER.time(nextUpdate)) }
    if !revoked.isEmpty {
      fields.append(
        DER.sequence(
          revoked.map { entry in
            var members = [
              DER.integer(unsignedBytes: entry.serialNumber), DER.time(entry.revocationDate),
            ]
            if let code = entry.reasonCode {
              let value = DER.encode(0x0A, [UInt8(truncatingIfNeeded: code)])
              members.append(
                DER.sequence([
                  CertificateExtension(oid: .crlReason, critical: false, value: value)
                    .derEncoded
                ]))
            }
            return DER.sequence(members)
          }))
    }
    var extensions = [
      CertificateExtension(oid: .crlNumber, critical: false, value: DER.integer(crlNumber))
    ]
    if let keyIdentifier = issuer.subjectKeyIdentifier {
      extensions.append(.authorityKeyIdentifier(keyIdentifier: keyIdentifier))
    }
    fields.append(DER.explicit(0, DER.sequence(extensions.map(\.derEncoded))))
    let tbs = DER.sequence(fields)
    let signature: ECDSASignature
    do {
      signature = try signer.signature(for: tbs)
    } catch {
      throw CertificateError(.signingFailed, "signer failed: \(error)", underlying: error)
    }
    return try CertificateRevocationList(
      derEncoded: DER.sequence([
        tbs, algorithm.derEncoded, DER.bitString(signature.derRepresentation),
      ]))
  }
}
