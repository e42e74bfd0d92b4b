public import DCCrypto
import DCJOSE
public import DCJSON
public import DCX509
public import Foundation

/// Which rules the Issuer-signed JWT must meet beyond RFC 9901 itself.
public enum SDJWTProfile: Sendable, Hashable {
  /// SD-JWT VC: `typ` `dc+sd-jwt` (or the legacy `vc+sd-jwt`), a string `vct`, and `iss`,
  /// `nbf`, `exp`, `cnf`, `vct`, `vct#integrity`, `aka_vcts`, `status` and their sub-claims
  /// never selectively disclosed (draft-ietf-oauth-sd-jwt-vc §3.2).
  case sdJWTVC
  /// Plain SD-JWT (RFC 9901): any `typ`, no required claims; `iss`, `nbf`, `exp` and `cnf`
  /// still must not be disclosed, since key binding and the validity checks rely on the issuer
  /// having signed them in the clear (RFC 9901 §4.1.2, §9.1).
  case sdJWT

  /// Top-level claims that must arrive in the clear under this profile.
  var clearClaims: Set<String> {
    switch self {
    case .sdJWTVC:
      ["iss", "nbf", "exp", "cnf", "vct", "vct#integrity", "aka_vcts", "status"]
    case .sdJWT: ["iss", "nbf", "exp", "cnf"]
    }
  }
}

/// How the issuer's key was established (SD-JWT VC §3.5).
public enum IssuerTrust: Sendable, Hashable {
  /// The caller supplied the issuer's public key directly.
  case issuerKey
  /// The key came from the `x5c` chain, which validated to a trust anchor (RFC 7515 §4.1.6,
  /// SD-JWT VC §3.5).
  case certificateChain(TrustedChain)
}

/// An SD-JWT whose issuer signature, claims and Disclosures all checked out (RFC 9901 §7.1,
/// SD-JWT VC §3).
public struct VerifiedSDJWT: Sendable, Hashable {
  /// The parsed SD-JWT the result came from (RFC 9901 §4).
  public let sdJWT: SDJWT
  /// The Processed SD-JWT Payload (RFC 9901 §7.1 step 6).
  public let payload: JSONValue
  /// The credential type, `vct`; always set under ``SDJWTProfile/sdJWTVC`` (SD-JWT VC §3.2.2, "vct").
  public let vct: String?
  /// The issuer, `iss` (RFC 7519 §4.1.1, SD-JWT VC §3.2.2, "Registered JWT Claims").
  public let issuer: String?
  /// The holder's public key from `cnf.jwk`, when the credential is key-bound (RFC 7800 §3.2,
  /// RFC 9901 §4.1.2).
  public let holderKey: ECPublicKey?
  /// Where each presented Disclosure landed in ``payload`` (RFC 9901 §7.2).
  package let disclosuresByPath: [ClaimPath: Disclosure]
  /// The `x5c` certificates, leaf first, when the header has them (RFC 7515 §4.1.6).
  public let issuerCertificateChain: [Certificate]
  /// How the issuer key was trusted (SD-JWT VC §3.5).
  public let trust: IssuerTrust
}

/// Checks shared by both ways of establishing the issuer key.
public struct SDJWTVerificationOptions: Sendable, Hashable {
  /// The profile the Issuer-signed JWT must meet.
  public var profile: SDJWTProfile
  /// Clock skew tolerated on `exp`, `nbf`, `iat`, in seconds (RFC 7519 §4.1.4).
  public var leeway: TimeInterval

  /// Creates options; SD-JWT VC and 60 seconds of leeway by default.
  public init(profile: SDJWTProfile = .sdJWTVC, leeway: TimeInterval = 60) {
    self.profile = profile
    self.leeway = leeway
  }
}

extension SDJWT {
  /// Verifies the issuer signature with a key the caller trusts, then the profile's header and
  /// claims, the validity times against `now`, and processes the Disclosures (RFC 9901 §7.1,
  /// SD-JWT VC §3).
  public func verify(
    issuerKey: ECPublicKey, now: Date, options: SDJWTVerificationOptions = .init()
  ) throws(SDJWTError) -> VerifiedSDJWT {
    let chain = (try? issuerCertificates()) ?? []
    return try verify(key: issuerKey, chain: chain, trust: .issuerKey, now: now, options: options)
  }

  /// Verifies with the key of the `x5c` leaf, after the chain validates against `trustAnchors`
  /// at `now` under `policies` (RFC 7515 §4.1.6, SD-JWT VC §3.5), then as
  /// ``verify(issuerKey:now:options:)``.
  ///
  /// Under the ``SDJWTProfile/sdJWTVC`` profile the path must also meet
  /// `SDJWTVCIssuerPolicy` (DCX509) for the credential's `iss`: the leaf is an end entity with
  /// keyUsage digitalSignature, and a present `iss` is vouched for by a leaf SAN (its `https`
  /// host as a dNSName, or the whole value as a URI).
  ///
  /// - Throws: `untrustedIssuer` when `x5c` is absent, unreadable or does not validate, or the
  ///   leaf does not vouch for `iss`.
  public func verify(
    trustAnchors: [Certificate], at now: Date, policies: [any CertificatePolicy] = [],
    options: SDJWTVerificationOptions = .init()
  ) throws(SDJWTError) -> VerifiedSDJWT {
    let chain: [Certificate]
    do {
      chain = try issuerCertificates()
    } catch {
      throw SDJWTError(.untrustedIssuer, "x5c: \(error.reason)", underlying: error)
    }
    guard !chain.isEmpty else {
      throw SDJWTError(.untrustedIssuer, "the issuer-signed JWT has no x5c header")
    }
    var policies = policies
    if options.profile == .sdJWTVC {
      // SD-JWT VC "Issuer Verification Key Discovery and Validation": the key must be shown to
      // belong to the Issuer. (`iss` is a string: the payload parse refuses anything else.)
      policies.insert(SDJWTVCIssuerPolicy(issuer: issuerPayload["iss"]?.string), at: 0)
    }
    let validator = CertificateValidator(
      trustAnchors: trustAnchors, policies: policies, revocation: .current)
    switch validator.validate(chain: chain, at: now) {
    case .trusted(let trusted):
      guard let key = trusted.leaf.publicKey.ecPublicKey else {
        throw SDJWTError(.untrustedIssuer, "the x5c leaf key is not an EC key")
      }
      return try verify(
        key: key, chain: chain, trust: .certificateChain(trusted), now: now, options: options)
    case .untrusted(let reason), .malformed(let reason):
      throw SDJWTError(.untrustedIssuer, "x5c chain: \(reason)")
    }
  }

  /// The `x5c` certificates, leaf first; empty without `x5c` (RFC 7515 §4.1.6).
  func issuerCertificates() throws(SDJWTError) -> [Certificate] {
    var chain: [Certificate] = []
    for der in issuerSignedJWT.x5c ?? [] {
      do {
        chain.append(try Certificate(derEncoded: der))
      } catch {
        throw SDJWTError(
          .untrustedIssuer, "x5c certificate does not parse: \(error.reason)", underlying: error)
      }
    }
    return chain
  }

  private func verify(
    key: ECPublicKey, chain: [Certificate], trust: IssuerTrust, now: Date,
    options: SDJWTVerificationOptions
  ) throws(SDJWTError) -> VerifiedSDJWT {
    // RFC 9901 §7.1 step 2: the signature first; `alg: none` never parses (CompactJWS).
    do {
      try issuerSignedJWT.verifySignature(with: key)
    } catch {
      throw SDJWTError(.invalidIssuerSignature, error.reason, underlying: error)
    }
    if options.profile == .sdJWTVC {
      // SD-JWT VC §3.2.1: the media type of the Issuer-signed JWT.
      let type = issuerSignedJWT.type
      guard mediaType(type, is: "dc+sd-jwt") || mediaType(type, is: "vc+sd-jwt") else {
        throw SDJWTError(
          .invalidType, "typ must be dc+sd-jwt (or legacy vc+sd-jwt), got \(type ?? "none")")
      }
    }
    let processed = try process()
    try checkNotDisclosed(processed, profile: options.profile)
    let claims = issuerPayload
    var vct: String?
    if let value = claims["vct"] {
      guard let string = value.string else {
        throw SDJWTError(.invalidClaim, "vct must be a string")
      }
      vct = string
    } else if options.profile == .sdJWTVC {
      throw SDJWTError(.missingClaim, "SD-JWT VC requires vct")
    }
    // SD-JWT VC allows `iat` to be disclosed, so the times are read after processing.
    try Self.checkTimes(of: processed.payload, now: now, leeway: options.leeway)
    return VerifiedSDJWT(
      sdJWT: self, payload: processed.payload, vct: vct, issuer: claims["iss"]?.string,
      holderKey: try holderKey(), disclosuresByPath: processed.disclosuresByPath,
      issuerCertificateChain: chain, trust: trust)
  }

  /// SD-JWT VC §3.2.2, "Registered JWT Claims": these claims, with any of their sub-claims,
  /// must not come from Disclosures.
  private func checkNotDisclosed(_ processed: ProcessedSDJWT, profile: SDJWTProfile)
    throws(SDJWTError)
  {
    for path in processed.disclosuresByPath.keys {
      guard case .key(let name) = path.components.first else { continue }
      if profile.clearClaims.contains(name) {
        throw SDJWTError(
          .forbiddenDisclosure, "claim \(path.dotted) must not be selectively disclosed")
      }
    }
  }

  /// RFC 7519 §4.1.4-4.1.6 with leeway.
  static func checkTimes(of claims: JSONValue, now: Date, leeway: TimeInterval)
    throws(SDJWTError)
  {
    for name in ["exp", "nbf", "iat"] {
      if let value = claims[name], value.double == nil {
        throw SDJWTError(.invalidClaim, "\(name) must be a NumericDate (RFC 7519 §2)")
      }
    }
    let t = now.timeIntervalSince1970
    if let exp = claims["exp"]?.double, t >= exp + leeway {
      throw SDJWTError(.expired, "expired at \(exp)")
    }
    if let nbf = claims["nbf"]?.double, t + leeway < nbf {
      throw SDJWTError(.notYetValid, "not valid before \(nbf)")
    }
    if let iat = claims["iat"]?.double, iat > t + leeway {
      throw SDJWTError(.notYetValid, "issued in the future at \(iat)")
    }
  }

  /// The holder key from `cnf.jwk`; nil without `cnf` (RFC 7800 §3.2, RFC 9901 §4.1.2).
  ///
  /// - Throws: `missingHolderBinding` for a `cnf` without a usable public `jwk`.
  public func holderKey() throws(SDJWTError) -> ECPublicKey? {
    guard let cnf = issuerPayload["cnf"] else { return nil }
    guard case .object = cnf, let jwkValue = cnf["jwk"] else {
      throw SDJWTError(.missingHolderBinding, "cnf must be an object with a jwk")
    }
    do {
      let jwk = try JWK(json: jwkValue)
      guard !jwk.isPrivate else {
        throw SDJWTError(.missingHolderBinding, "cnf.jwk must not contain a private key")
      }
      return try jwk.publicKey()
    } catch let error as SDJWTError {
      throw error
    } catch {
      throw SDJWTError(.missingHolderBinding, "cnf.jwk: \(error)", underlying: error)
    }
  }
}

/// Compares a `typ` value with a media type: case-insensitively, and with `application/`
/// implied when the value has no `/` (RFC 7515 §4.1.9, RFC 2045 §5.1).
func mediaType(_ typ: String?, is expected: String) -> Bool {
  guard var value = typ?.lowercased() else { return false }
  if value.hasPrefix("application/") { value.removeFirst("application/".count) }
  return value == expected
}
