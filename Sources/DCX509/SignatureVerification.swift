import DCCrypto

/// The outcome of checking one certificate's signature with an issuer key.
enum SignatureCheck: Sendable, Equatable {
  case valid
  case invalid
  case unsupported(String)
}

/// Checks an ECDSA signature made with `algorithm` over `signed` with `key`, using the digest the
/// algorithm names (RFC 5758 §3.2); certificates and CRLs are signed alike (RFC 5280 §4.1.1.3,
/// §5.1.1.3).
func verifySignature(
  algorithm: SignatureAlgorithm, signature: [UInt8], signed: [UInt8], key: CertificatePublicKey
) -> SignatureCheck {
  guard let digest = algorithm.ecdsaDigest else {
    return .unsupported("signature algorithm \(algorithm) is not supported")
  }
  guard case .ec(let ecKey) = key else {
    return .unsupported("issuer key \(key) cannot verify \(algorithm)")
  }
  // An ECDSA-Sig-Value that does not decode is a signature that does not verify.
  guard let value = try? ECDSASignature(derRepresentation: signature, curve: ecKey.curve) else {
    return .invalid
  }
  return ecKey.isValidSignature(value, for: signed, digest: digest) ? .valid : .invalid
}

extension Certificate {
  /// Checks this certificate's signature over ``tbsCertificateBytes`` with issuer's key
  /// (RFC 5280 §6.1.3(a)(1)), using the digest the signature algorithm names (RFC 5758 §3.2).
  func checkSignature(issuedBy issuer: Certificate) -> SignatureCheck {
    verifySignature(
      algorithm: signatureAlgorithm, signature: signature, signed: tbsCertificateBytes,
      key: issuer.publicKey)
  }

  /// Whether issuer's key verifies this certificate's ECDSA signature (RFC 5280 §6.1.3(a)(1)).
  public func isSignatureValid(issuedBy issuer: Certificate) -> Bool {
    checkSignature(issuedBy: issuer) == .valid
  }
}
