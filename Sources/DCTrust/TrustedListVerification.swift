package import DCX509
package import Foundation

extension TrustedList {
  /// Verifies a published list of `kind` against its operator's certificates and returns it;
  /// the one entry point that the wallet's import and refresh use, whatever the kind.
  ///
  /// `time` is when a VICAL's or RICAL's signer must be valid (ISO/IEC 18013-5 Annex C.1.7.1);
  /// LoTE, TSL and LOTL readers do not take it.
  ///
  /// - Throws: `TrustError`: each kind's own errors (`.malformed`, `.invalidSignature`,
  ///   `.untrustedSigner`, `.expired`, ...).
  package static func verifying(
    _ bytes: [UInt8], kind: TrustedListKind, operatorCertificates: [Certificate],
    at time: Date = Date()
  ) throws(TrustError) -> TrustedList {
    switch kind {
    case .lote: return try verifyingLoTE(bytes, operatorCertificates: operatorCertificates)
    case .tsl: return try verifyingTSL(bytes, operatorCertificates: operatorCertificates)
    case .lotl: return try verifyingLOTL(bytes, operatorCertificates: operatorCertificates)
    case .vical:
      return try verifyingVICAL(bytes, operatorCertificates: operatorCertificates, at: time)
    case .rical:
      return try verifyingRICAL(bytes, operatorCertificates: operatorCertificates, at: time)
    }
  }
}
