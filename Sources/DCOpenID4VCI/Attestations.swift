package import DCCrypto
import DCEncoding
package import DCJOSE
package import DCJSON
package import DCX509
package import Foundation

/// How an attestation JWT names the key that signed it (OpenID4VCI 1.0 Appendix D.1: `x5c`,
/// `kid` or `trust_chain`; this module writes the first two).
package enum AttesterKeyHeader: Sendable, Hashable {
  /// `kid`: the verifier knows the attester's key by this identifier.
  case kid(String)
  /// `x5c`: the attester's certificate chain, leaf first, DER (RFC 7515 §4.1.6).
  case x5c([[UInt8]])
}

/// Which attesters a verifier trusts: their keys, or X.509 anchors their `x5c` must chain to.
package enum AttesterTrust: Sendable {
  /// Any of these public keys (matched by signature; `kid` is not needed).
  case keys([ECPublicKey])
  /// An `x5c` chain reaching one of these anchors at the verification time.
  case certificates([Certificate], policies: [any CertificatePolicy] = [])

  /// The attester key that verifies `jws`, or throws `code`.
  func verify(_ jws: CompactJWS, at now: Date, code: OpenID4VCIErrorCode)
    throws(OpenID4VCIError)
  {
    switch self {
    case .keys(let keys):
      for key in keys where (try? jws.verifySignature(with: key)) != nil { return }
      throw OpenID4VCIError(code, "the signature does not verify with a trusted attester key")
    case .certificates(let anchors, let policies):
      var chain: [Certificate] = []
      for der in jws.x5c ?? [] {
        do {
          chain.append(try Certificate(derEncoded: der))
        } catch {
          throw OpenID4VCIError(code, "an x5c certificate does not parse", underlying: error)
        }
      }
      guard !chain.isEmpty else { throw OpenID4VCIError(code, "the JWT has no x5c") }
      let validator = CertificateValidator(
        trustAnchors: anchors, policies: policies, revocation: .current)
      guard case .trusted(let path) = validator.validate(chain: chain, at: now) else {
        throw OpenID4VCIError(code, "the x5c chain reaches no trusted attester")
      }
      guard let key = path.leaf.publicKey.ecPublicKey else {
        throw OpenID4VCIError(code, "the attester certificate's key is not an EC key")
      }
      do {
        try jws.verifySignature(with: key)
      } catch {
        throw OpenID4VCIError(code, "the signature does not verify", underlying: error)
      }
    }
  }
}

/// Reading and checking the parts every attestation JWT shares.
enum AttestationJWT {
  static func sign(
    type: String, signer: any Signer, keyHeader: AttesterKeyHeader?, claims: JSONValue
  ) throws(OpenID4VCIError) -> String {
    var header: [(key: String, value: JSONValue)] = [
      ("typ", .string(type)), ("alg", .string(JWSAlgorithm(curve: signer.curve).rawValue)),
    ]
    switch keyHeader {
    case .kid(let kid): header.append(("kid", .string(kid)))
    case .x5c(let chain): header.append(("x5c", JWS.x5c(chain)))
    case nil: break
    }
    return try ProofJWTReader.sign(header: .object(header), claims: claims, signer: signer)
  }

  /// Parses a compact JWT of type `type`, with an allowed `alg` (never `none` or a MAC).
  static func parse(
    _ compact: String, type: String, allowed: Set<JWSAlgorithm>, code: OpenID4VCIErrorCode
  ) throws(OpenID4VCIError) -> ProofJWT {
    guard compact.utf8.count <= 16 * 1024 else {
      throw OpenID4VCIError(code, "the JWT is longer than 16 KiB")
    }
    let header = try ProofJWTReader.header(compact, malformed: code)
    _ = try ProofJWTReader.checkTypeAndAlgorithm(
      header, type: type, allowed: allowed, typeCode: code, algorithmCode: code)
    return try ProofJWTReader.parse(compact, header: header, malformed: code)
  }

  /// A public JWK from a claim value, refusing private members.
  static func publicJWK(_ value: JSONValue?, _ what: String, code: OpenID4VCIErrorCode)
    throws(OpenID4VCIError) -> JWK
  {
    guard let value, case .object = value else { throw OpenID4VCIError(code, "\(what) is missing") }
    for member in privateJWKMembers where value[member] != nil {
      throw OpenID4VCIError(code, "\(what) carries a private key member")
    }
    do {
      return try JWK(json: value)
    } catch {
      throw OpenID4VCIError(
        code, "\(what) is not a usable EC JWK: \(error.reason)", underlying: error)
    }
  }
}

// MARK: - Client attestation

/// OAuth 2.0 Attestation-Based Client Authentication (draft-ietf-oauth-attestation-based-client-auth,
/// §4 and §5.1), which OpenID4VCI 1.0 Appendix E uses as the Wallet Attestation: the wallet
/// provider signs a Client Attestation JWT binding the wallet instance's key (`cnf.jwk`) to the
/// `client_id` (`sub`); the instance proves possession per request with a Client Attestation PoP
/// JWT. Both travel in headers.
package enum ClientAttestation {
  /// The `typ` of the Client Attestation JWT (§4).
  package static let type = "oauth-client-attestation+jwt"
  /// The `typ` of the Client Attestation PoP JWT (§5.1).
  package static let popType = "oauth-client-attestation-pop+jwt"
  /// The request header carrying the attestation (§4).
  package static let headerName = "OAuth-Client-Attestation"
  /// The request header carrying the PoP (§5.1).
  package static let popHeaderName = "OAuth-Client-Attestation-PoP"
  /// The response header carrying a fresh challenge (§6.2).
  package static let challengeHeaderName = "OAuth-Client-Attestation-Challenge"
  /// The `token_endpoint_auth_methods_supported` value of this method (§9).
  package static let authenticationMethod = "attest_jwt_client_auth"

  /// Creates a Client Attestation JWT (§4; OpenID4VCI 1.0 Appendix E).
  ///
  /// - Parameters:
  ///   - signer: the attester's (wallet provider's) key.
  ///   - keyHeader: how the attester's key is named.
  ///   - issuer: `iss`, the attester's identifier (OpenID4VCI 1.0 Appendix E), or nil.
  ///   - clientID: `sub`, the `client_id`.
  ///   - instanceKey: `cnf.jwk`, the wallet instance's public key.
  ///   - issuedAt: `iat`; `expiresAt`: `exp` (required).
  ///   - additionalClaims: e.g. `wallet_name`, `wallet_link` (Appendix E).
  package static func attestation(
    signer: any Signer, keyHeader: AttesterKeyHeader?, issuer: String?, clientID: String,
    instanceKey: ECPublicKey, issuedAt: Date, expiresAt: Date,
    additionalClaims: [(String, JSONValue)] = []
  ) throws(OpenID4VCIError) -> String {
    var claims: [(key: String, value: JSONValue)] = []
    if let issuer { claims.append(("iss", .string(issuer))) }
    claims.append(("sub", .string(clientID)))
    claims.append(("iat", ProofJWTReader.numericDate(issuedAt)))
    claims.append(("exp", ProofJWTReader.numericDate(expiresAt)))
    claims.append(("cnf", .object([("jwk", JWK(publicKey: instanceKey).json)])))
    for (name, value) in additionalClaims where !claims.contains(where: { $0.key == name }) {
      claims.append((name, value))
    }
    return try AttestationJWT.sign(
      type: type, signer: signer, keyHeader: keyHeader, claims: .object(claims))
  }

  /// Creates a Client Attestation PoP JWT (§5.1), signed by the instance key.
  ///
  /// - Parameters:
  ///   - audience: `aud`, the authorization server's issuer identifier (§5.1).
  ///   - challenge: `challenge`, when the server provided one (§6).
  ///   - random: the source of the 128-bit `jti`.
  package static func proofOfPossession(
    signer: any Signer, audience: String, issuedAt: Date = Date(), challenge: String? = nil,
    random: any RandomSource = SecureRandom()
  ) throws(OpenID4VCIError) -> String {
    var claims: [(key: String, value: JSONValue)] = [
      ("aud", .string(audience)),
      ("jti", .string(Base64URL.encode(random.bytes(count: 16)))),
      ("iat", ProofJWTReader.numericDate(issuedAt)),
    ]
    if let challenge { claims.append(("challenge", .string(challenge))) }
    return try AttestationJWT.sign(
      type: popType, signer: signer, keyHeader: nil, claims: .object(claims))
  }
}

/// A Client Attestation and its PoP that passed every check of §7.1 and §7.2.
package struct VerifiedClientAttestation: Sendable, Hashable {
  /// `sub`: the authenticated `client_id`.
  package let clientID: String
  /// `iss`, when present.
  package let issuer: String?
  /// `cnf.jwk`: the wallet instance key.
  package let instanceKey: JWK
  /// `exp`.
  package let expiresAt: Date
  /// The attestation's claims, e.g. `wallet_name`.
  package let claims: JSONValue
  /// The PoP's `jti`, for replay detection.
  package let popJTI: String
}

/// The authorization server's check of a Client Attestation and its PoP
/// (draft-ietf-oauth-attestation-based-client-auth §7.1, §7.2).
package struct ClientAttestationVerifier: Sendable {
  /// The attesters (wallet providers) trusted.
  package var trust: AttesterTrust
  /// `client_attestation_signing_alg_values_supported` and `..._pop_...`.
  package var allowedAlgorithms: Set<JWSAlgorithm>
  /// How old a PoP's `iat` may be, seconds.
  package var popMaxAge: TimeInterval
  /// Clock skew allowed, seconds.
  package var leeway: TimeInterval
  /// The clock.
  package var clock: @Sendable () -> Date
  /// Records PoP `jti` values; a second use is a replay (§10.1). Nil skips the check.
  package var replayStore: (any DPoPReplayStore)?

  /// A verifier for the authorization server's token and PAR endpoints.
  ///
  /// - Parameters:
  ///   - trust: the wallet providers whose Client Attestations are accepted (their keys or X.509
  ///     anchors).
  ///   - allowedAlgorithms: the JWS algorithms accepted for the attestation and its PoP.
  ///   - popMaxAge: how old a PoP's `iat` may be, in seconds.
  ///   - leeway: the clock skew allowed on `iat` and `exp`, in seconds.
  ///   - clock: the current time; tests inject a fixed one.
  ///   - replayStore: records PoP `jti` values so that a PoP is accepted once (§10.1); nil skips
  ///     the replay check.
  package init(
    trust: AttesterTrust, allowedAlgorithms: Set<JWSAlgorithm> = [.es256],
    popMaxAge: TimeInterval = 300, leeway: TimeInterval = 60,
    clock: @escaping @Sendable () -> Date = { Date() }, replayStore: (any DPoPReplayStore)? = nil
  ) {
    self.trust = trust
    self.allowedAlgorithms = allowedAlgorithms
    self.popMaxAge = popMaxAge
    self.leeway = leeway
    self.clock = clock
    self.replayStore = replayStore
  }

  /// Checks the two header values.
  ///
  /// - Parameters:
  ///   - attestation: the `OAuth-Client-Attestation` value.
  ///   - pop: the `OAuth-Client-Attestation-PoP` value.
  ///   - audience: this server's issuer identifier; the PoP's `aud` must equal it.
  ///   - clientID: the request's `client_id`, when it has one: it must equal `sub` (§7.1).
  ///   - challenge: the challenge this server handed out, when it did: the PoP must carry it.
  package func verify(
    attestation: String, pop: String, audience: String, clientID: String?,
    challenge: String? = nil
  ) throws(OpenID4VCIError) -> VerifiedClientAttestation {
    let verified = try verifyAttestation(attestation, clientID: clientID)
    let jti = try verifyProofOfPossession(
      pop, instanceKey: verified.instanceKey, audience: audience, challenge: challenge)
    return VerifiedClientAttestation(
      clientID: verified.clientID, issuer: verified.issuer, instanceKey: verified.instanceKey,
      expiresAt: verified.expiresAt, claims: verified.claims, popJTI: jti)
  }

  /// Checks a Client Attestation JWT alone (§7.1); `popJTI` of the result is empty.
  package func verifyAttestation(_ attestation: String, clientID: String?)
    throws(OpenID4VCIError) -> VerifiedClientAttestation
  {
    let now = clock()
    let code = OpenID4VCIErrorCode.invalidClientAttestation
    let parsed = try AttestationJWT.parse(
      attestation, type: ClientAttestation.type, allowed: allowedAlgorithms, code: code)
    try trust.verify(parsed.jws, at: now, code: code)
    let claims = parsed.claims
    guard let subject = claims.sub, !subject.isEmpty else {
      throw OpenID4VCIError(code, "the attestation has no sub")
    }
    guard let expiresAt = claims.exp else {
      throw OpenID4VCIError(code, "the attestation has no exp")
    }
    guard expiresAt > now.addingTimeInterval(-leeway) else {
      throw OpenID4VCIError(code, "the attestation has expired")
    }
    if let notBefore = claims.nbf, notBefore > now.addingTimeInterval(leeway) {
      throw OpenID4VCIError(code, "the attestation is not yet valid")
    }
    if let iat = claims.iat, iat > now.addingTimeInterval(leeway) {
      throw OpenID4VCIError(code, "the attestation's iat is in the future")
    }
    let instanceKey = try AttestationJWT.publicJWK(claims["cnf"]?["jwk"], "cnf.jwk", code: code)
    if let clientID, clientID != subject {
      throw OpenID4VCIError(code, "client_id '\(clientID)' is not the attestation's sub")
    }
    return VerifiedClientAttestation(
      clientID: subject, issuer: claims.iss, instanceKey: instanceKey, expiresAt: expiresAt,
      claims: claims.json, popJTI: "")
  }

  /// Checks a Client Attestation PoP JWT (§7.2) against the attested instance key; returns its
  /// `jti`.
  package func verifyProofOfPossession(
    _ pop: String, instanceKey: JWK, audience: String, challenge: String?
  ) throws(OpenID4VCIError) -> String {
    let now = clock()
    let popCode = OpenID4VCIErrorCode.invalidClientAttestationPoP
    let popJWT = try AttestationJWT.parse(
      pop, type: ClientAttestation.popType, allowed: allowedAlgorithms, code: popCode)
    do {
      try popJWT.jws.verifySignature(with: instanceKey.publicKey())
    } catch {
      throw OpenID4VCIError(popCode, "the PoP is not signed by cnf.jwk", underlying: error)
    }
    let popClaims = popJWT.claims
    guard popClaims.aud == [audience] else {
      throw OpenID4VCIError(popCode, "the PoP's aud is not \(audience)")
    }
    guard let jti = popClaims.jti, !jti.isEmpty else {
      throw OpenID4VCIError(popCode, "the PoP has no jti")
    }
    let iat = try ProofJWTReader.issuedAt(popClaims, malformed: popCode)
    try ProofJWTReader.checkIssuedAt(
      iat, now: now, maxAge: popMaxAge, leeway: leeway, code: popCode)
    if let challenge {
      guard let received = popClaims["challenge"]?.string,
        constantTimeEquals(Array(received.utf8), Array(challenge.utf8))
      else { throw OpenID4VCIError(popCode, "the PoP does not carry the server's challenge") }
    }
    if let replayStore {
      let key = instanceKey.thumbprintBase64URL + ":" + jti
      let expiry = iat.addingTimeInterval(popMaxAge + leeway)
      guard replayStore.insertIfAbsent(key, expiry: expiry, now: now) else {
        throw OpenID4VCIError(popCode, "the PoP's jti was seen before")
      }
    }
    return jti
  }
}

// MARK: - Key attestation

/// Key attestations in JWT format (OpenID4VCI 1.0 Appendix D.1): a wallet provider (or the key
/// storage itself) attests that `attested_keys` live in a key storage of a given attack
/// potential resistance. The wallet puts one in a key proof's `key_attestation` header (§F.1).
package enum KeyAttestation {
  /// The `typ` (Appendix D.1).
  package static let type = "key-attestation+jwt"

  /// The attack potential resistance values of Appendix D.2.
  package static let iso18045High = "iso_18045_high"
  package static let iso18045Moderate = "iso_18045_moderate"
  package static let iso18045EnhancedBasic = "iso_18045_enhanced-basic"
  package static let iso18045Basic = "iso_18045_basic"

  /// Creates a key attestation JWT (Appendix D.1). `expiresAt` is required when the
  /// attestation goes with `jwt` proofs (D.1: "MUST be present if ... used with the JWT proof
  /// type"), so it is required here.
  package static func attestation(
    signer: any Signer, keyHeader: AttesterKeyHeader?, issuer: String?,
    attestedKeys: [ECPublicKey], issuedAt: Date, expiresAt: Date,
    keyStorage: [String]? = nil, userAuthentication: [String]? = nil,
    certification: String? = nil, nonce: String? = nil
  ) throws(OpenID4VCIError) -> String {
    guard !attestedKeys.isEmpty else {
      throw OpenID4VCIError(.invalidKeyAttestation, "attested_keys must not be empty")
    }
    var claims = ObjectBuilder()
    claims.set("iss", issuer)
    claims.set("iat", ProofJWTReader.numericDate(issuedAt))
    claims.set("exp", ProofJWTReader.numericDate(expiresAt))
    claims.set("attested_keys", .array(attestedKeys.map { JWK(publicKey: $0).json }))
    claims.set("key_storage", strings: keyStorage)
    claims.set("user_authentication", strings: userAuthentication)
    claims.set("certification", certification)
    claims.set("nonce", nonce)
    return try AttestationJWT.sign(
      type: type, signer: signer, keyHeader: keyHeader, claims: claims.value)
  }
}

/// A key attestation that passed the checks of Appendix D.1.
package struct VerifiedKeyAttestation: Sendable, Hashable {
  /// `attested_keys`, public.
  package let attestedKeys: [JWK]
  /// `key_storage`.
  package let keyStorage: [String]?
  /// `user_authentication`.
  package let userAuthentication: [String]?
  /// `nonce`.
  package let nonce: String?
  /// `iat`.
  package let issuedAt: Date
  /// `exp`.
  package let expiresAt: Date?
  /// `iss`.
  package let issuer: String?
}

/// The issuer's check of key attestations (OpenID4VCI 1.0 Appendix D.1); plug
/// ``verifyKeys(_:)`` into the `keyAttestationVerifier` argument of ``KeyProofVerifier``'s
/// initializer.
package struct KeyAttestationVerifier: Sendable {
  package var trust: AttesterTrust
  package var allowedAlgorithms: Set<JWSAlgorithm>
  /// Clock skew allowed, seconds.
  package var leeway: TimeInterval
  package var clock: @Sendable () -> Date
  /// Whether `exp` must be present (D.1: for use with `jwt` proofs).
  package var requireExpiry: Bool
  /// Checks the attestation's `nonce`, when the issuer requires one to be fresh.
  package var nonceCheck: (@Sendable (String?) -> Bool)?

  /// A verifier for the key attestations of the issuer's credential endpoint.
  ///
  /// - Parameters:
  ///   - trust: the wallet providers (or key storages) whose attestations are accepted.
  ///   - allowedAlgorithms: the JWS algorithms accepted for the attestation.
  ///   - leeway: the clock skew allowed on `iat` and `exp`, in seconds.
  ///   - clock: the current time; tests inject a fixed one.
  ///   - requireExpiry: whether `exp` must be present (Appendix D.1 requires it when the
  ///     attestation comes with `jwt` proofs).
  ///   - nonceCheck: checks the attestation's `nonce` (nil when absent) against the nonces the
  ///     issuer handed out; nil accepts any.
  package init(
    trust: AttesterTrust, allowedAlgorithms: Set<JWSAlgorithm> = [.es256],
    leeway: TimeInterval = 60, clock: @escaping @Sendable () -> Date = { Date() },
    requireExpiry: Bool = true, nonceCheck: (@Sendable (String?) -> Bool)? = nil
  ) {
    self.trust = trust
    self.allowedAlgorithms = allowedAlgorithms
    self.leeway = leeway
    self.clock = clock
    self.requireExpiry = requireExpiry
    self.nonceCheck = nonceCheck
  }

  /// Verifies a `key-attestation+jwt` (Appendix D.1): the signature by a trusted attester, `iat`,
  /// `exp`, the nonce, and a non-empty `attested_keys`.
  ///
  /// - Parameter compact: the attestation JWT, in compact serialization.
  /// - Returns: the attested keys, with the claims that qualify them.
  /// - Throws: `OpenID4VCIErrorCode.invalidKeyAttestation` naming the check that failed.
  package func verify(_ compact: String) throws(OpenID4VCIError) -> VerifiedKeyAttestation {
    let code = OpenID4VCIErrorCode.invalidKeyAttestation
    let now = clock()
    let parsed = try AttestationJWT.parse(
      compact, type: KeyAttestation.type, allowed: allowedAlgorithms, code: code)
    try trust.verify(parsed.jws, at: now, code: code)
    let claims = parsed.claims
    let iat = try ProofJWTReader.issuedAt(claims, malformed: code)
    guard iat <= now.addingTimeInterval(leeway) else {
      throw OpenID4VCIError(code, "the key attestation's iat is in the future")
    }
    if let exp = claims.exp {
      guard exp > now.addingTimeInterval(-leeway) else {
        throw OpenID4VCIError(code, "the key attestation has expired")
      }
    } else if requireExpiry {
      throw OpenID4VCIError(code, "the key attestation has no exp")
    }
    guard let keys = claims["attested_keys"]?.array, !keys.isEmpty else {
      throw OpenID4VCIError(code, "attested_keys is not a non-empty array")
    }
    guard keys.count <= CredentialRequestProofs.maximumCount else {
      throw OpenID4VCIError(code, "attested_keys has too many keys")
    }
    var attested: [JWK] = []
    for (index, key) in keys.enumerated() {
      attested.append(try AttestationJWT.publicJWK(key, "attested_keys[\(index)]", code: code))
    }
    func strings(_ name: String) throws(OpenID4VCIError) -> [String]? {
      guard let value = claims[name] else { return nil }
      guard let array = value.array, !array.isEmpty,
        case let strings = array.compactMap(\.string), strings.count == array.count
      else { throw OpenID4VCIError(code, "\(name) is not a non-empty array of strings") }
      return strings
    }
    let nonce = claims.nonce
    if let nonceCheck, !nonceCheck(nonce) {
      throw OpenID4VCIError(code, "the key attestation's nonce is missing or not fresh")
    }
    return VerifiedKeyAttestation(
      attestedKeys: attested, keyStorage: try strings("key_storage"),
      userAuthentication: try strings("user_authentication"), nonce: nonce, issuedAt: iat,
      expiresAt: claims.exp, issuer: claims.iss)
  }

  /// The attested keys of a verified key attestation, the closure that
  /// ``KeyProofVerifier``'s `keyAttestationVerifier` takes.
  ///
  /// - Throws: what ``verify(_:)`` throws.
  package func verifyKeys(_ compact: String) throws -> [JWK] { try verify(compact).attestedKeys }
}
