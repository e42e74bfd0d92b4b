@_exported public import DCErrors

/// An error from SD-JWT parsing, processing, issuance, presentation or verification: an
/// extensible code and a reason (the `JOSEError` convention).
///
/// Codes are values rather than enum cases so that adding a failure kind breaks no client.
public typealias SDJWTError = DCError<SDJWTErrorCode>

/// What kind of failure this is; match on it, never on the reason text.
public struct SDJWTErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }

  /// The code's name, for logs.
  public var description: String { name }

  /// The serialization, the issuer-signed JWT or its payload is not well formed (RFC 9901 §4, §7.1).
  public static let malformed = Self("malformed")
  /// A Disclosure is not base64url JSON array of two or three elements, or names `_sd` or
  /// `...` (RFC 9901 §4.2, §7.1 step 3).
  public static let invalidDisclosure = Self("invalidDisclosure")
  /// The same Disclosure was presented twice (RFC 9901 §7.1 step 4).
  package static let duplicateDisclosure = Self("duplicateDisclosure")
  /// A digest appears more than once in the payload or in Disclosures (RFC 9901 §7.1 step 4).
  package static let duplicateDigest = Self("duplicateDigest")
  /// A Disclosure is referenced by no digest (RFC 9901 §7.1 step 5).
  package static let unreferencedDisclosure = Self("unreferencedDisclosure")
  /// A disclosed claim name already exists in its object (RFC 9901 §7.1 step 3.2.2.3).
  package static let claimNameConflict = Self("claimNameConflict")
  /// `_sd_alg` names a hash algorithm this module does not support (RFC 9901 §4.1.1).
  package static let unsupportedHashAlgorithm = Self("unsupportedHashAlgorithm")
  /// The issuer-signed JWT's signature does not verify, or its algorithm is refused (RFC 9901 §7.1 step 2).
  public static let invalidIssuerSignature = Self("invalidIssuerSignature")
  /// The `x5c` chain is missing or does not validate against the trust anchors (SD-JWT VC §3.5).
  public static let untrustedIssuer = Self("untrustedIssuer")
  /// The JOSE header `typ` is not the one the profile requires (SD-JWT VC §3.2.1).
  package static let invalidType = Self("invalidType")
  /// A required claim is absent (SD-JWT VC §3.2.2, "Registered JWT Claims").
  public static let missingClaim = Self("missingClaim")
  /// A claim has the wrong type or value (RFC 7519 §4.1, SD-JWT VC §3.2.2).
  package static let invalidClaim = Self("invalidClaim")
  /// A claim that must stay in the clear arrived through a Disclosure (SD-JWT VC §3.2.2, "Registered JWT Claims").
  package static let forbiddenDisclosure = Self("forbiddenDisclosure")
  /// `exp` has passed (RFC 7519 §4.1.4).
  public static let expired = Self("expired")
  /// `nbf` or `iat` lies in the future (RFC 7519 §4.1.5, §4.1.6).
  public static let notYetValid = Self("notYetValid")
  /// The credential binds a holder key (`cnf`) but the presentation has no KB-JWT (RFC 9901 §7.3 step 3).
  package static let missingKeyBinding = Self("missingKeyBinding")
  /// A KB-JWT was sent or requested but the credential has no usable `cnf.jwk` (RFC 9901 §4.1.2).
  public static let missingHolderBinding = Self("missingHolderBinding")
  /// The KB-JWT is malformed, has the wrong `typ`, a bad signature or a stale `iat` (RFC 9901 §7.3 step 5).
  public static let invalidKeyBinding = Self("invalidKeyBinding")
  /// The KB-JWT's `aud`, `nonce` or `sd_hash` is not the expected value (RFC 9901 §7.3 step 5).
  package static let keyBindingMismatch = Self("keyBindingMismatch")
  /// A claim path names nothing in the payload (RFC 9901 §4.2.4, §7.2).
  package static let claimNotFound = Self("claimNotFound")
  /// The signer or the crypto backend failed while producing a JWT (RFC 7515 §5.1).
  public static let signingFailed = Self("signingFailed")
}
