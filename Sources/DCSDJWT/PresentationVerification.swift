public import DCCrypto
import DCJOSE
import DCJSON
public import DCX509
public import Foundation

/// What a verifier expects of a presentation's Key Binding JWT (RFC 9901 §7.3 step 5).
struct KeyBindingExpectation: Sendable, Hashable {
  /// The `aud` the verifier asked for; `origin:<origin>` over the DC API (OpenID4VP 1.0 A.4).
  var audience: String
  /// The `nonce` the verifier sent (RFC 9901 §7.3 step 5).
  var nonce: String
  /// How old `iat` may be, in seconds (RFC 9901 §7.3 step 5: "within an acceptable window").
  var maximumAge: TimeInterval

  /// Creates an expectation; `iat` may be five minutes old by default.
  init(audience: String, nonce: String, maximumAge: TimeInterval = 300) {
    self.audience = audience
    self.nonce = nonce
    self.maximumAge = maximumAge
  }
}

extension SDJWT {
  /// Verifies a presentation with an issuer key the caller trusts: the issuer checks of
  /// ``SDJWT/verify(issuerKey:now:options:)``, then the Key Binding JWT (RFC 9901 §7.3).
  public static func verifyPresentation(
    serialized: String, issuerKey: ECPublicKey, expectedAudience: String,
    expectedNonce: String, now: Date, maxKeyBindingAge: TimeInterval = 300,
    options: SDJWTVerificationOptions = .init()
  ) throws(SDJWTError) -> VerifiedPresentation {
    let sdJWT = try SDJWT(serialized: serialized)
    let credential = try sdJWT.verify(issuerKey: issuerKey, now: now, options: options)
    return try sdJWT.checkKeyBinding(
      credential,
      expected: KeyBindingExpectation(
        audience: expectedAudience, nonce: expectedNonce, maximumAge: maxKeyBindingAge),
      now: now, leeway: options.leeway)
  }

  /// Verifies a presentation whose issuer key comes from a validated `x5c` chain, then the Key
  /// Binding JWT (RFC 9901 §7.3, SD-JWT VC §3.5).
  public static func verifyPresentation(
    serialized: String, trustAnchors: [Certificate], policies: [any CertificatePolicy] = [],
    expectedAudience: String, expectedNonce: String, now: Date,
    maxKeyBindingAge: TimeInterval = 300, options: SDJWTVerificationOptions = .init()
  ) throws(SDJWTError) -> VerifiedPresentation {
    let sdJWT = try SDJWT(serialized: serialized)
    let credential = try sdJWT.verify(
      trustAnchors: trustAnchors, at: now, policies: policies, options: options)
    return try sdJWT.checkKeyBinding(
      credential,
      expected: KeyBindingExpectation(
        audience: expectedAudience, nonce: expectedNonce, maximumAge: maxKeyBindingAge),
      now: now, leeway: options.leeway)
  }

  /// RFC 9901 §7.3 steps 3-5 on an already verified credential.
  func checkKeyBinding(
    _ credential: VerifiedSDJWT, expected: KeyBindingExpectation, now: Date,
    leeway: TimeInterval
  ) throws(SDJWTError) -> VerifiedPresentation {
    guard let kb = keyBindingJWT else {
      // RFC 9901 §7.3 step 3: a key-bound credential is only presented with proof of the key.
      if credential.holderKey != nil {
        throw SDJWTError(.missingKeyBinding, "the credential has cnf but no KB-JWT was presented")
      }
      return VerifiedPresentation(credential: credential, keyBinding: nil)
    }
    guard let holderKey = credential.holderKey else {
      throw SDJWTError(
        .missingHolderBinding, "a KB-JWT was presented but the credential has no cnf")
    }
    // RFC 9901 §7.3 step 5: the media type, then the signature with the cnf key.
    guard mediaType(kb.type, is: "kb+jwt") else {
      throw SDJWTError(.invalidKeyBinding, "KB-JWT typ must be kb+jwt, got \(kb.type ?? "none")")
    }
    do {
      try kb.verifySignature(with: holderKey)
    } catch {
      throw SDJWTError(.invalidKeyBinding, "KB-JWT signature: \(error.reason)", underlying: error)
    }
    let claims: JSONValue
    do {
      claims = try JWTClaims(payload: kb.payload).json
    } catch {
      throw SDJWTError(.invalidKeyBinding, "KB-JWT payload: \(error.reason)", underlying: error)
    }
    guard let iat = claims["iat"]?.double else {
      throw SDJWTError(.invalidKeyBinding, "KB-JWT has no iat")
    }
    guard let aud = claims["aud"]?.string else {
      throw SDJWTError(.invalidKeyBinding, "KB-JWT aud must be a single string")
    }
    guard let nonce = claims["nonce"]?.string else {
      throw SDJWTError(.invalidKeyBinding, "KB-JWT has no nonce")
    }
    guard let sdHash = claims["sd_hash"]?.string else {
      throw SDJWTError(.invalidKeyBinding, "KB-JWT has no sd_hash")
    }
    // The reference library does not check iat; a stale or future KB-JWT is a replay risk.
    let t = now.timeIntervalSince1970
    guard iat <= t + leeway else {
      throw SDJWTError(.invalidKeyBinding, "KB-JWT iat \(iat) is in the future")
    }
    guard iat >= t - expected.maximumAge - leeway else {
      throw SDJWTError(
        .invalidKeyBinding, "KB-JWT iat \(iat) is older than \(expected.maximumAge) s")
    }
    guard aud == expected.audience else {
      throw SDJWTError(.keyBindingMismatch, "KB-JWT aud \(aud) is not \(expected.audience)")
    }
    guard nonce == expected.nonce else {
      throw SDJWTError(.keyBindingMismatch, "KB-JWT nonce does not match")
    }
    // RFC 9901 §4.3.1: over the exact presented text, with the SD-JWT's own hash algorithm.
    guard sdHash == self.sdHash else {
      throw SDJWTError(.keyBindingMismatch, "KB-JWT sd_hash does not match the presentation")
    }
    var hashes: [String]?
    if let value = claims["transaction_data_hashes"] {
      guard let array = value.array, !array.isEmpty else {
        throw SDJWTError(.invalidKeyBinding, "transaction_data_hashes must be a non-empty array")
      }
      var strings: [String] = []
      for element in array {
        guard let s = element.string else {
          throw SDJWTError(.invalidKeyBinding, "transaction_data_hashes must hold strings")
        }
        strings.append(s)
      }
      hashes = strings
    }
    var hashesAlg: String?
    if let value = claims["transaction_data_hashes_alg"] {
      guard let s = value.string else {
        throw SDJWTError(.invalidKeyBinding, "transaction_data_hashes_alg must be a string")
      }
      hashesAlg = s
    }
    let binding = VerifiedKeyBinding(
      jwt: kb, issuedAt: Date(timeIntervalSince1970: iat), audience: aud, nonce: nonce,
      sdHash: sdHash, transactionDataHashes: hashes, transactionDataHashesAlg: hashesAlg)
    return VerifiedPresentation(credential: credential, keyBinding: binding)
  }
}
