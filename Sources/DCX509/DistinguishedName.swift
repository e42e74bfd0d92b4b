import DCErrors

/// An X.501 Name as certificates carry it (RFC 5280 §4.1.2.4), keeping its original DER bytes.
///
/// Equality is on the DER bytes: chains are matched by exact encoding, which is what conforming
/// issuers produce (RFC 5280 §4.1.2.4 "issuer ... MUST be identical to the subject"), rather than
/// by the §7.1 normalised comparison.
public struct DistinguishedName: Sendable, Hashable, CustomStringConvertible {
  /// One attribute of a relative distinguished name, such as CN=utopia iaca.
  public struct Attribute: Sendable, Hashable {
    /// The attribute type, such as id-at-commonName (RFC 5280 Appendix A.1).
    public let type: ASN1ObjectIdentifier
    /// The attribute value as text (DirectoryString, RFC 5280 §4.1.2.4).
    public let value: String

    /// Creates an attribute.
    package init(type: ASN1ObjectIdentifier, value: String) {
      self.type = type
      self.value = value
    }
  }

  /// The Name exactly as encoded.
  public let derBytes: [UInt8]
  /// The relative distinguished names in encoding order, each a set of attributes.
  package let relativeDistinguishedNames: [[Attribute]]

  /// Reads an RDNSequence (RFC 5280 §4.1.2.4).
  public init(derEncoded bytes: [UInt8]) throws(CertificateError) {
    try self.init(node: try DER.parse(bytes))
  }

  init(node: DER.Node) throws(CertificateError) {
    _ = try node.expect(DER.Identifier.sequence, "Name")
    var rdns: [[Attribute]] = []
    for rdn in node.childNodes {
      _ = try rdn.expect(DER.Identifier.set, "RelativeDistinguishedName")
      guard rdn.hasChildren else {
        throw CertificateError(.invalidCertificate, "empty RelativeDistinguishedName")
      }
      var attributes: [Attribute] = []
      for pair in rdn.childNodes {
        var members = try pair.expect(DER.Identifier.sequence, "AttributeTypeAndValue")
          .members("AttributeTypeAndValue")
        let type = try members.next(DER.Identifier.objectIdentifier, "type").objectIdentifier()
        let valueNode = try members.nextAny("value")
        try members.finish()
        let value: String
        if let text = try? valueNode.stringValue() {
          value = text
        } else {
          // RFC 4514 §2.4: values that are not strings print as '#' and their hex DER.
          value = "#" + hex(valueNode.encodedBytes)
        }
        attributes.append(Attribute(type: type, value: value))
      }
      rdns.append(attributes)
    }
    self.derBytes = Array(node.encodedBytes)
    self.relativeDistinguishedNames = rdns
  }

  /// Builds a Name with one attribute per RDN in the conventional order C, ST, L, O, OU, CN;
  /// countryName is a PrintableString (RFC 5280 Appendix A.1), the rest UTF8String (§4.1.2.6).
  public init(
    commonName: String? = nil, organization: String? = nil, organizationalUnit: String? = nil,
    locality: String? = nil, stateOrProvince: String? = nil, country: String? = nil
  ) {
    let ordered: [(ASN1ObjectIdentifier, String?)] = [
      (.countryName, country), (.stateOrProvinceName, stateOrProvince),
      (.localityName, locality), (.organizationName, organization),
      (.organizationalUnitName, organizationalUnit), (.commonName, commonName),
    ]
    var encodedRDNs: [[UInt8]] = []
    var rdns: [[Attribute]] = []
    for (type, value) in ordered {
      guard let value else { continue }
      let encodedValue =
        type == .countryName ? DER.printableString(value) : DER.utf8String(value)
      encodedRDNs.append(DER.set([DER.sequence([DER.objectIdentifier(type), encodedValue])]))
      rdns.append([Attribute(type: type, value: value)])
    }
    self.derBytes = DER.sequence(encodedRDNs)
    self.relativeDistinguishedNames = rdns
  }

  /// Every attribute, in encoding order.
  public var attributes: [Attribute] { relativeDistinguishedNames.flatMap { $0 } }

  /// The first value of an attribute type, if present.
  public func first(_ type: ASN1ObjectIdentifier) -> String? {
    attributes.first { $0.type == type }?.value
  }

  /// The commonName attribute (RFC 5280 Appendix A.1).
  public var commonName: String? { first(.commonName) }
  /// The organizationName attribute (RFC 5280 Appendix A.1).
  public var organization: String? { first(.organizationName) }
  /// The organizationalUnitName attribute (RFC 5280 Appendix A.1).
  package var organizationalUnit: String? { first(.organizationalUnitName) }
  /// The countryName attribute (RFC 5280 Appendix A.1).
  public var country: String? { first(.countryName) }
  /// The stateOrProvinceName attribute (RFC 5280 Appendix A.1).
  package var stateOrProvince: String? { first(.stateOrProvinceName) }
  /// The localityName attribute (RFC 5280 Appendix A.1).
  public var locality: String? { first(.localityName) }

  /// The name as RFC 4514 §2.1 orders it, last RDN first: `CN=utopia iaca, C=US`.
  public var description: String {
    relativeDistinguishedNames.reversed().map { rdn in
      rdn.map { "\($0.type)=\($0.value)" }.joined(separator: "+")
    }.joined(separator: ", ")
  }

  /// Names are equal when their DER encodings are (RFC 5280 §4.1.2.4 name chaining).
  public static func == (lhs: DistinguishedName, rhs: DistinguishedName) -> Bool {
    lhs.derBytes == rhs.derBytes
  }

  /// Hashes the DER encoding (RFC 5280 §4.1.2.4).
  public func hash(into hasher: inout Hasher) { hasher.combine(derBytes) }
}
