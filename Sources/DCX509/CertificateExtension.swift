public import DCCrypto

/// One certificate extension as encoded (RFC 5280 §4.1.2.9): its identifier, criticality and
/// the DER inside its extnValue OCTET STRING.
public struct CertificateExtension: Sendable, Hashable {
  /// The extension's identifier (extnID).
  public let oid: ASN1ObjectIdentifier
  /// Whether a verifier that does not understand the extension must reject the certificate.
  public let critical: Bool
  /// The DER value inside extnValue.
  public let value: [UInt8]

  /// Creates an extension from its parts; value is the DER that goes inside extnValue.
  public init(oid: ASN1ObjectIdentifier, critical: Bool, value: [UInt8]) {
    self.oid = oid
    self.critical = critical
    self.value = value
  }

  /// The Extension SEQUENCE; critical is omitted when false, its DEFAULT (X.690 §11.5).
  var derEncoded: [UInt8] {
    DER.sequence(
      [DER.objectIdentifier(oid)] + (critical ? [DER.boolean(true)] : [])
        + [DER.octetString(value)])
  }
}

/// The basicConstraints extension's meaning (RFC 5280 §4.2.1.9).
package struct BasicConstraints: Sendable, Hashable {
  /// Whether the subject is a CA whose key may verify certificate signatures.
  package let isCA: Bool
  /// The most non-self-issued intermediates that may follow this CA, if limited.
  package let pathLengthConstraint: Int?

  /// Creates the extension's meaning.
  package init(isCA: Bool, pathLengthConstraint: Int? = nil) {
    self.isCA = isCA
    self.pathLengthConstraint = pathLengthConstraint
  }
}

/// The keyUsage bits (RFC 5280 §4.2.1.3).
public struct KeyUsage: OptionSet, Sendable, Hashable {
  /// Bit n of the BIT STRING is `1 << n` here.
  public let rawValue: UInt16

  /// Creates a set from raw bits.
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  /// digitalSignature (0): the key verifies signatures other than on certificates and CRLs.
  public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
  /// nonRepudiation / contentCommitment (1).
  public static let nonRepudiation = KeyUsage(rawValue: 1 << 1)
  /// keyEncipherment (2).
  public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
  /// dataEncipherment (3).
  public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
  /// keyAgreement (4).
  public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
  /// keyCertSign (5): the key verifies certificate signatures.
  public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
  /// cRLSign (6): the key verifies CRL signatures.
  public static let cRLSign = KeyUsage(rawValue: 1 << 6)
  /// encipherOnly (7).
  public static let encipherOnly = KeyUsage(rawValue: 1 << 7)
  /// decipherOnly (8).
  public static let decipherOnly = KeyUsage(rawValue: 1 << 8)
}

extension CertificateExtension {
  /// basicConstraints (RFC 5280 §4.2.1.9); critical for CA certificates.
  package static func basicConstraints(isCA: Bool, pathLength: Int? = nil, critical: Bool = true)
    -> CertificateExtension
  {
    var members: [[UInt8]] = []
    if isCA { members.append(DER.boolean(true)) }
    if let pathLength { members.append(DER.integer(pathLength)) }
    return CertificateExtension(
      oid: .basicConstraints, critical: critical, value: DER.sequence(members))
  }

  /// keyUsage (RFC 5280 §4.2.1.3), a named bit list without trailing zero bits (X.690 §11.2.2).
  public static func keyUsage(_ usage: KeyUsage, critical: Bool = true) -> CertificateExtension {
    var bytes: [UInt8] = [0, 0]
    for bit in 0..<9 where usage.rawValue & (1 << bit) != 0 {
      bytes[bit / 8] |= 0x80 >> UInt8(bit % 8)
    }
    while let last = bytes.last, last == 0 { bytes.removeLast() }
    let unused = bytes.last.map { UInt8($0.trailingZeroBitCount) } ?? 0
    return CertificateExtension(
      oid: .keyUsage, critical: critical, value: DER.bitString(bytes, unusedBits: unused))
  }

  /// extKeyUsage (RFC 5280 §4.2.1.12); ISO 18013-5 Annex B marks it critical.
  package static func extendedKeyUsage(_ purposes: [ASN1ObjectIdentifier], critical: Bool = true)
    -> CertificateExtension
  {
    CertificateExtension(
      oid: .extendedKeyUsage, critical: critical,
      value: DER.sequence(purposes.map(DER.objectIdentifier)))
  }

  /// subjectKeyIdentifier (RFC 5280 §4.2.1.2), never critical.
  public static func subjectKeyIdentifier(_ identifier: [UInt8]) -> CertificateExtension {
    CertificateExtension(
      oid: .subjectKeyIdentifier, critical: false, value: DER.octetString(identifier))
  }

  /// authorityKeyIdentifier with only keyIdentifier `[0]` (RFC 5280 §4.2.1.1), never critical.
  public static func authorityKeyIdentifier(keyIdentifier: [UInt8]) -> CertificateExtension {
    CertificateExtension(
      oid: .authorityKeyIdentifier, critical: false,
      value: DER.sequence([DER.encode(0x80, keyIdentifier)]))
  }

  /// subjectAltName (RFC 5280 §4.2.1.6); critical only when the subject name is empty.
  public static func subjectAlternativeNames(_ names: [GeneralName], critical: Bool = false)
    -> CertificateExtension
  {
    CertificateExtension(
      oid: .subjectAlternativeName, critical: critical,
      value: DER.sequence(names.map(\.derEncoded)))
  }

  /// cRLDistributionPoints (RFC 5280 §4.2.1.13), one distribution point per URI, each a
  /// fullName.
  package static func crlDistributionPoints(_ uris: [String]) -> CertificateExtension {
    let points = uris.map { uri in
      // DistributionPoint { distributionPoint [0] { fullName [0] GeneralNames } }
      DER.sequence([
        DER.explicit(0, DER.implicit(0, DER.sequence([GeneralName.uri(uri).derEncoded])))
      ])
    }
    return CertificateExtension(
      oid: .crlDistributionPoints, critical: false, value: DER.sequence(points))
  }

  /// The SKI this library derives for a key: the leftmost 160 bits of the SHA-256 of the
  /// subjectPublicKey BIT STRING contents, RFC 7093 §2 method 1 (SHA-1 is not available here).
  public static func keyIdentifier(for publicKey: ECPublicKey) -> [UInt8] {
    Array(SHA256.hash(data: publicKey.x963Representation).prefix(20))
  }
}

/// The extensions this library understands, decoded once when a certificate is read.
struct DecodedExtensions: Sendable, Hashable {
  var basicConstraints: BasicConstraints?
  var keyUsage: KeyUsage?
  var extendedKeyUsage: [ASN1ObjectIdentifier]?
  var subjectKeyIdentifier: [UInt8]?
  var authorityKeyIdentifier: [UInt8]?
  var subjectAlternativeNames: [GeneralName]?
  var issuerAlternativeNames: [GeneralName]?
  var crlDistributionPointNames: [GeneralName]?

  /// RFC 5280 §6.1.4(o) and §4.2: the extension identifiers whose criticality this library honours.
  static let understood: Set<ASN1ObjectIdentifier> = [
    .basicConstraints, .keyUsage, .extendedKeyUsage, .subjectKeyIdentifier,
    .authorityKeyIdentifier, .subjectAlternativeName, .issuerAlternativeName,
    .crlDistributionPoints,
  ]

  init() {}

  init(_ extensions: [CertificateExtension]) throws(CertificateError) {
    for (index, ext) in extensions.enumerated() {
      // RFC 5280 §4.2: a certificate MUST NOT include more than one instance of an extension.
      // A linear scan: certificates carry a handful of extensions, and hashing costs more.
      guard !extensions[..<index].contains(where: { $0.oid == ext.oid }) else {
        throw CertificateError(.invalidExtension, "extension \(ext.oid) appears twice")
      }
      guard DecodedExtensions.understood.contains(ext.oid) else { continue }
      let node: DER.Node
      do {
        node = try DER.parse(ext.value)
      } catch {
        throw CertificateError(.invalidExtension, "\(ext.oid): \(error.reason)", underlying: error)
      }
      do {
        try decode(ext.oid, node)
      } catch  where error.code == .invalidExtension {
        throw error
      } catch {
        throw CertificateError(.invalidExtension, "\(ext.oid): \(error.reason)", underlying: error)
      }
    }
  }

  private mutating func decode(_ oid: ASN1ObjectIdentifier, _ node: DER.Node)
    throws(CertificateError)
  {
    switch oid {
    case .basicConstraints:
      var members = try node.expect(DER.Identifier.sequence, "BasicConstraints")
        .members("BasicConstraints")
      let isCA = try members.optional(DER.Identifier.boolean)?.booleanValue() ?? false
      let pathLength = try members.optional(DER.Identifier.integer)?.integerValue()
      try members.finish()
      basicConstraints = BasicConstraints(isCA: isCA, pathLengthConstraint: pathLength)
    case .keyUsage:
      let (bytes, _) = try node.bitStringBytes()
      guard bytes.count <= 2 else {
        throw CertificateError(.invalidExtension, "keyUsage has more than 9 bits")
      }
      var raw: UInt16 = 0
      for (index, byte) in bytes.enumerated() {
        for bit in 0..<8 where byte & (0x80 >> UInt8(bit)) != 0 {
          raw |= 1 << UInt16(index * 8 + bit)
        }
      }
      keyUsage = KeyUsage(rawValue: raw)
    case .extendedKeyUsage:
      _ = try node.expect(DER.Identifier.sequence, "ExtKeyUsageSyntax")
      guard !node.children.isEmpty else {
        throw CertificateError(.invalidExtension, "extKeyUsage is empty")
      }
      var purposes: [ASN1ObjectIdentifier] = []
      for child in node.children { purposes.append(try child.objectIdentifier()) }
      extendedKeyUsage = purposes
    case .subjectKeyIdentifier:
      subjectKeyIdentifier = try node.octetStringBytes()
    case .authorityKeyIdentifier:
      _ = try node.expect(DER.Identifier.sequence, "AuthorityKeyIdentifier")
      // keyIdentifier [0] IMPLICIT OCTET STRING; authorityCertIssuer [1] and serial [2] are
      // read past (RFC 5280 §4.2.1.1 only requires keyIdentifier).
      var members = node.members("AuthorityKeyIdentifier")
      authorityKeyIdentifier = members.optional(0x80).map { Array($0.content) }
      _ = members.optional(0xA1)
      _ = members.optional(0x82)
      try members.finish()
    case .subjectAlternativeName:
      subjectAlternativeNames = try GeneralName.sequence(node, "subjectAltName")
    case .issuerAlternativeName:
      issuerAlternativeNames = try GeneralName.sequence(node, "issuerAltName")
    case .crlDistributionPoints:
      _ = try node.expect(DER.Identifier.sequence, "CRLDistributionPoints")
      var names: [GeneralName] = []
      for point in node.children {
        _ = try point.expect(DER.Identifier.sequence, "DistributionPoint")
        // distributionPoint [0] { fullName [0] GeneralNames | nameRelativeToCRLIssuer [1] }
        guard let name = point.children.first(where: { $0.identifier == 0xA0 }),
          let full = name.children.first, full.identifier == 0xA0
        else { continue }
        for child in full.children { names.append(try GeneralName(node: child)) }
      }
      crlDistributionPointNames = names
    default:
      break
    }
  }
}
