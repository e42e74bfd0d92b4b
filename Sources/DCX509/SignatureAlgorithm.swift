package import DCCrypto

/// A certificate's signature AlgorithmIdentifier (RFC 5280 §4.1.1.2).
package struct SignatureAlgorithm: Sendable, Hashable, CustomStringConvertible {
  /// The algorithm's identifier.
  package let oid: ASN1ObjectIdentifier
  /// The DER of the parameters, if present; ECDSA has none (RFC 5758 §3.2).
  package let parameters: [UInt8]?

  /// Creates an algorithm identifier.
  package init(oid: ASN1ObjectIdentifier, parameters: [UInt8]? = nil) {
    self.oid = oid
    self.parameters = parameters
  }

  /// ecdsa-with-SHA256 (RFC 5758 §3.2).
  package static let ecdsaWithSHA256 = SignatureAlgorithm(
    oid: ASN1ObjectIdentifier(arcs: [1, 2, 840, 10045, 4, 3, 2]))
  /// ecdsa-with-SHA384 (RFC 5758 §3.2).
  package static let ecdsaWithSHA384 = SignatureAlgorithm(
    oid: ASN1ObjectIdentifier(arcs: [1, 2, 840, 10045, 4, 3, 3]))
  /// ecdsa-with-SHA512 (RFC 5758 §3.2).
  package static let ecdsaWithSHA512 = SignatureAlgorithm(
    oid: ASN1ObjectIdentifier(arcs: [1, 2, 840, 10045, 4, 3, 4]))

  /// The ECDSA algorithm for a digest.
  package static func ecdsa(_ digest: DigestAlgorithm) -> SignatureAlgorithm {
    switch digest {
    case .sha256: .ecdsaWithSHA256
    case .sha384: .ecdsaWithSHA384
    case .sha512: .ecdsaWithSHA512
    }
  }

  /// The digest when this is an ECDSA algorithm this library verifies, else nil.
  package var ecdsaDigest: DigestAlgorithm? {
    // RFC 5758 §3.2: the parameters field MUST be absent.
    guard parameters == nil else { return nil }
    switch oid {
    case SignatureAlgorithm.ecdsaWithSHA256.oid: return .sha256
    case SignatureAlgorithm.ecdsaWithSHA384.oid: return .sha384
    case SignatureAlgorithm.ecdsaWithSHA512.oid: return .sha512
    default: return nil
    }
  }

  /// The algorithm's name, or its dotted identifier.
  package var description: String { oid.description }

  var derEncoded: [UInt8] {
    DER.sequence([DER.objectIdentifier(oid)] + (parameters.map { [$0] } ?? []))
  }

  init(node: DER.Node) throws(CertificateError) {
    var members = try node.expect(DER.Identifier.sequence, "AlgorithmIdentifier")
      .members("AlgorithmIdentifier")
    oid = try members.next(DER.Identifier.objectIdentifier, "algorithm").objectIdentifier()
    parameters = members.isAtEnd ? nil : Array(try members.nextAny("parameters").encodedBytes)
    try members.finish()
  }
}
