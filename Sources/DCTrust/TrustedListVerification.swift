package import DCX509

extension TrustedList {
  /// Verifies a published list of `kind` against its operator's certificates and returns it;
  /// the one entry point that the wallet's import and refresh use, whatever the kind.
  ///
  /// - Throws: `TrustError`: `.unavailable` for a kind whose parser this build lacks, and each
  ///   kind's own errors (`.malformed`, `.invalidSignature`, `.untrustedSigner`, ...).
  package static func verifying(
    _ bytes: [UInt8], kind: TrustedListKind, operatorCertificates: [Certificate]
  ) throws(TrustError) -> TrustedList {
    switch kind {
    case .lote: return try verifyingLoTE(bytes, operatorCertificates: operatorCertificates)
    case .tsl: return try verifyingTSL(bytes, operatorCertificates: operatorCertificates)
    case .lotl: return try verifyingLOTL(bytes, operatorCertificates: operatorCertificates)
    // VICAL and RICAL arrive with trust-crl's branch of issue 29.
    case .vical, .rical:
      throw TrustError(.unavailable, "this build does not read \(kind.rawValue) lists")
    }
  }
}
