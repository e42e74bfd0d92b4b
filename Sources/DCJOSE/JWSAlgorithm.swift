public import DCCrypto

/// The JWS signature algorithms this module implements: ECDSA only (RFC 7518 §3.4).
///
/// `none`, HMAC and RSA are deliberately absent: parsing any other `alg` fails with
/// `unsupportedAlgorithm` (RFC 7515 §5.2 step 8 lets a recipient refuse algorithms).
public enum JWSAlgorithm: String, Sendable, Hashable, CaseIterable {
  /// ECDSA with P-256 and SHA-256 (RFC 7518 §3.4).
  case es256 = "ES256"
  /// ECDSA with P-384 and SHA-384 (RFC 7518 §3.4).
  case es384 = "ES384"
  /// ECDSA with P-521 and SHA-512 (RFC 7518 §3.4).
  case es512 = "ES512"

  /// The algorithm RFC 7518 §3.4 pairs with a curve.
  package init(curve: EllipticCurve) {
    switch curve {
    case .p256: self = .es256
    case .p384: self = .es384
    case .p521: self = .es512
    }
  }

  /// Reads an `alg` value, refusing anything but ES256/384/512 (RFC 7515 §4.1.1).
  package init(name: String) throws(JOSEError) {
    guard let algorithm = JWSAlgorithm(rawValue: name) else {
      throw JOSEError(.unsupportedAlgorithm, "JWS alg \(name) is not supported")
    }
    self = algorithm
  }

  /// The curve the algorithm requires (RFC 7518 §3.4).
  public var curve: EllipticCurve {
    switch self {
    case .es256: .p256
    case .es384: .p384
    case .es512: .p521
    }
  }

  /// The digest the algorithm hashes with (RFC 7518 §3.4).
  package var digest: DigestAlgorithm { curve.defaultDigest }

  /// The length of the raw `R || S` signature, twice the scalar size (RFC 7518 §3.4).
  package var signatureByteCount: Int { 2 * curve.coordinateByteCount }

  /// Checks a signature over the exact signing input (RFC 7515 §5.2 step 8, RFC 7518 §3.4).
  func verify(signature: [UInt8], signingInput: [UInt8], key: ECPublicKey) throws(JOSEError) {
    guard key.curve == curve else {
      throw JOSEError(
        .algorithmKeyMismatch, "\(rawValue) needs a \(curve.jwkName) key, got \(key.curve.jwkName)")
    }
    // RFC 7518 §3.4: R and S are each exactly the scalar size; other lengths are invalid.
    guard signature.count == signatureByteCount else {
      throw JOSEError(
        .invalidSignature,
        "\(rawValue) signature must be \(signatureByteCount) bytes, got \(signature.count)")
    }
    guard let parsed = try? ECDSASignature(rawRepresentation: signature, curve: curve),
      key.isValidSignature(parsed, for: signingInput, digest: digest)
    else {
      throw JOSEError(.invalidSignature, "\(rawValue) signature does not verify")
    }
  }

  /// Signs with a signer whose curve matches (RFC 7515 §5.1 step 5).
  func sign(_ signingInput: [UInt8], with signer: any Signer) throws(JOSEError) -> [UInt8] {
    guard signer.curve == curve else {
      throw JOSEError(
        .algorithmKeyMismatch,
        "\(rawValue) needs a \(curve.jwkName) key, the signer's is \(signer.curve.jwkName)")
    }
    do {
      let signature = try signer.signature(for: signingInput)
      guard signature.rawRepresentation.count == signatureByteCount else {
        throw JOSEError(.cryptoFailure, "signer returned a signature of the wrong size")
      }
      return signature.rawRepresentation
    } catch let error as JOSEError {
      throw error
    } catch {
      throw JOSEError(.cryptoFailure, "signer failed: \(error)", underlying: error)
    }
  }
}
