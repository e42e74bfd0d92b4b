import DCCrypto

/// The outcome of checking one certificate's signature with an issuer key.
enum SignatureCheck: Sendable, Equatable {
  case valid
  case invalid
  case unsupported(String)
}

extension Certificate {
  /// Checks this certificate's signature over ``tbsCertificateBytes`` with issuer's key
  /// (RFC 5280 §6.1.3(a)(1)), using the digest the signature algorithm names (RFC 5758 §3.2).
  func checkSignature(issuedBy issuer: Certificate) -> SignatureCheck {
    guard let digest = signatureAlgorithm.ecdsaDigest else {
      return .unsupported("signature algorithm \(signatureAlgorithm) is not supported")
    }
    guard case .ec(let key) = issuer.publicKey else {
      return .unsupported("issuer key \(issuer.publicKey) cannot verify \(signatureAlgorithm)")
    }
    // An ECDSA-Sig-Value that does not decode is a signature that does not verify.
    guard let value = try? ECDSASignature(derRepresentation: signature, curve: key.curve) else {
      return .invalid
    }
    return key.isValidSignature(value, for: tbsCertificateBytes, digest: digest) ? .valid : .invalid
  }

  /// Whether issuer's key verifies this certificate's ECDSA signature (RFC 5280 §6.1.3(a)(1)).
  public func isSignatureValid(issuedBy issuer: Certificate) -> Bool {
    checkSignature(issuedBy: issuer) == .valid
  }
}
