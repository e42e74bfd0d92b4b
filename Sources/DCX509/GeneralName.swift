/// A GeneralName (RFC 5280 §4.2.1.6), as subjectAltName, issuerAltName and CRL distribution
/// points carry it.
public enum GeneralName: Sendable, Hashable {
  /// rfc822Name `[1]`, an email address.
  case rfc822Name(String)
  /// dNSName `[2]`, the form OpenID4VP `x509_san_dns` matches (OpenID4VP 1.0 §5.9.3).
  case dnsName(String)
  /// directoryName `[4]`.
  case directoryName(DistinguishedName)
  /// uniformResourceIdentifier `[6]`.
  case uri(String)
  /// iPAddress `[7]`, 4 or 16 octets in network order.
  case ipAddress([UInt8])
  /// Any other choice (otherName, x400Address, ediPartyName, registeredID), kept as DER.
  case other(tag: UInt8, derBytes: [UInt8])

  init(node: DER.Node) throws(CertificateError) {
    func ia5() throws(CertificateError) -> String {
      guard node.content.allSatisfy({ $0 < 0x80 }) else {
        throw CertificateError(.invalidExtension, "GeneralName IA5String is not ASCII")
      }
      return String(decoding: node.content, as: UTF8.self)
    }
    switch node.identifier {
    case 0x81: self = .rfc822Name(try ia5())
    case 0x82: self = .dnsName(try ia5())
    case 0x86: self = .uri(try ia5())
    case 0x87: self = .ipAddress(Array(node.content))
    case 0xA4:
      // RFC 5280 §4.2.1.6: directoryName is an EXPLICIT tag around a Name (a CHOICE).
      guard node.children.count == 1 else {
        throw CertificateError(.invalidExtension, "directoryName must hold one Name")
      }
      self = .directoryName(try DistinguishedName(node: node.children[0]))
    default:
      self = .other(tag: node.identifier, derBytes: Array(node.encodedBytes))
    }
  }

  var derEncoded: [UInt8] {
    switch self {
    case .rfc822Name(let text): DER.encode(0x81, Array(text.utf8))
    case .dnsName(let text): DER.encode(0x82, Array(text.utf8))
    case .uri(let text): DER.encode(0x86, Array(text.utf8))
    case .ipAddress(let bytes): DER.encode(0x87, bytes)
    case .directoryName(let name): DER.explicit(4, name.derBytes)
    case .other(_, let bytes): bytes
    }
  }

  static func sequence(_ node: DER.Node, _ what: String) throws(CertificateError) -> [GeneralName] {
    guard node.identifier == DER.Identifier.sequence, !node.children.isEmpty else {
      throw CertificateError(.invalidExtension, "\(what) must be a non-empty GeneralNames")
    }
    var names: [GeneralName] = []
    for child in node.children { names.append(try GeneralName(node: child)) }
    return names
  }
}
