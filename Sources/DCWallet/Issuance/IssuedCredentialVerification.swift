import DCCOSE
package import DCCrypto
import DCEncoding
package import DCErrors
import DCJOSE
import DCJSON
import DCMdoc
import DCSDJWT
package import DCX509
package import Foundation

/// A credential as the credential endpoint (or the deferred credential endpoint) returned it
/// (OpenID4VCI 1.0 §8.3, `credentials[].credential`), with the device key its proof was made by.
package struct IssuedCredential: Sendable, Hashable {
  /// The credential itself, by format.
  package enum Payload: Sendable, Hashable {
    /// An ISO 18013-5 `IssuerSigned` structure (CBOR).
    case msoMdoc(issuerSigned: [UInt8])
    /// An SD-JWT VC in compact serialization, without key binding.
    case sdJWT(String)

    /// The format this payload claims.
    package var format: CredentialFormat {
      switch self {
      case .msoMdoc: .msoMdoc
      case .sdJWT: .sdJWT
      }
    }
  }

  /// The credential.
  package let payload: Payload
  /// The wallet's device key store identifier of the key the proof for it was made with: the
  /// key the credential must bind.
  package let deviceKeyID: String

  /// Creates an issued credential from its decoded payload.
  package init(payload: Payload, deviceKeyID: String) {
    self.payload = payload
    self.deviceKeyID = deviceKeyID
  }

  /// Creates an issued credential from the response's string: base64url of the `IssuerSigned`
  /// CBOR for `mso_mdoc` (OpenID4VCI 1.0 Appendix A.2.4), the compact SD-JWT for `dc+sd-jwt`
  /// (Appendix A.3.4).
  ///
  /// - Throws: `IssuanceRejection` with `.malformed` when an mdoc is not base64url.
  package init(format: CredentialFormat, credential: String, deviceKeyID: String)
    throws(IssuanceRejection)
  {
    switch format {
    case .msoMdoc:
      do {
        payload = .msoMdoc(issuerSigned: try Base64URL.decode(credential))
      } catch {
        throw IssuanceRejection(
          .malformed, "the mso_mdoc credential is not base64url: \(error.reason)",
          deviceKeyID: deviceKeyID, underlying: error)
      }
    case .sdJWT:
      payload = .sdJWT(credential.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    self.deviceKeyID = deviceKeyID
  }
}

/// What the wallet asked the issuer for, which an issued credential must match.
package struct IssuanceExpectation: Sendable, Hashable {
  /// The Credential Issuer Identifier.
  package var credentialIssuer: String
  /// The configuration requested (`credential_configuration_id`).
  package var configurationID: String
  /// The configuration's format.
  package var format: CredentialFormat
  /// The configuration's `doctype` (`mso_mdoc`) or `vct` (`dc+sd-jwt`), which the credential
  /// must carry (OpenID4VCI 1.0 Appendix A.2.2, A.3.2).
  package var type: String
  /// The configuration's `credential_metadata.display`, kept with the credential.
  package var display: [IssuerCredentialDisplay]

  /// Creates an expectation.
  package init(
    credentialIssuer: String, configurationID: String, format: CredentialFormat, type: String,
    display: [IssuerCredentialDisplay] = []
  ) {
    self.credentialIssuer = credentialIssuer
    self.configurationID = configurationID
    self.format = format
    self.type = type
    self.display = display
  }
}

/// The keys an issuer publishes in its JWT VC issuer metadata (SD-JWT VC §5,
/// `/.well-known/jwt-vc-issuer`), as the client fetched them, with the `issuer` they were
/// published for.
package struct JWTVCIssuerKeys: Sendable, Hashable {
  /// The metadata's `issuer`: only an SD-JWT whose `iss` is this value may use the keys.
  package var issuer: String
  /// The metadata's keys (`jwks`), EC public keys.
  package var keys: [ECPublicKey]

  /// Creates the key set.
  package init(issuer: String, keys: [ECPublicKey]) {
    self.issuer = issuer
    self.keys = keys
  }
}

/// What the wallet may trust an issued credential's issuer by, besides its own issuer anchors.
package struct IssuanceTrustOptions: Sendable, Hashable {
  /// The IACAs the issuer published at `mdoc_iacas_uri` (as fetched by the client).
  package var issuerPublishedIACAs: [Certificate]
  /// The holder's explicit opt-in to accept `issuerPublishedIACAs` as anchors for this
  /// issuance only, for an mdoc's `x5chain` and an SD-JWT VC's `x5c` alike; a credential stored
  /// that way records it (`IssuanceTrustBasis.issuerPublishedIACA`) and is labelled
  /// `IssuerTrust.issuerVouched`. Off by default: the issuer would otherwise vouch for itself.
  package var trustIssuerPublishedIACAs: Bool
  /// The issuer's JWT VC issuer metadata keys: with `trustIssuerMetadataKeys`, an SD-JWT whose
  /// `iss` is their issuer may verify with one of them when its `x5c` does not reach an anchor.
  package var issuerMetadataKeys: JWTVCIssuerKeys?
  /// The holder's explicit opt-in to accept `issuerMetadataKeys` (the issuer's own keys, from
  /// its own origin): a credential stored that way records it
  /// (`IssuanceTrustBasis.issuerMetadataKey`) and is labelled `IssuerTrust.issuerVouched`. Off
  /// by default, as for the published IACAs.
  package var trustIssuerMetadataKeys: Bool

  /// Creates options; by default only the wallet's own anchors count.
  package init(
    issuerPublishedIACAs: [Certificate] = [], trustIssuerPublishedIACAs: Bool = false,
    issuerMetadataKeys: JWTVCIssuerKeys? = nil, trustIssuerMetadataKeys: Bool = false
  ) {
    self.issuerPublishedIACAs = issuerPublishedIACAs
    self.trustIssuerPublishedIACAs = trustIssuerPublishedIACAs
    self.issuerMetadataKeys = issuerMetadataKeys
    self.trustIssuerMetadataKeys = trustIssuerMetadataKeys
  }

  /// The issuer's published IACAs when the holder opted in to them; empty otherwise.
  var acceptedPublishedIACAs: [Certificate] {
    trustIssuerPublishedIACAs ? issuerPublishedIACAs : []
  }
}

/// Why an issued credential was not stored: one per credential, with a code to match on.
package typealias IssuanceRejection = DCError<IssuanceRejectionCode>

/// Which check failed.
package struct IssuanceRejectionCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  package var description: String { name }

  /// The credential does not parse (not base64url, not IssuerSigned, not an SD-JWT, or an
  /// SD-JWT carrying a key binding JWT).
  package static let malformed = Self("malformed")
  /// The credential's format is not the configuration's.
  package static let formatMismatch = Self("formatMismatch")
  /// The issuer signature does not verify.
  package static let invalidSignature = Self("invalidSignature")
  /// The issuer's chain reaches no anchor the wallet may use for this issuance.
  package static let untrustedIssuer = Self("untrustedIssuer")
  /// An IssuerSignedItem or a Disclosure does not match its digest.
  package static let digestMismatch = Self("digestMismatch")
  /// The credential is past its `validUntil` / `exp`.
  package static let expired = Self("expired")
  /// The credential is not valid yet (`validFrom` / `nbf`), or was signed in the future.
  package static let notYetValid = Self("notYetValid")
  /// The doctype or vct is not the configuration's.
  package static let typeMismatch = Self("typeMismatch")
  /// The key the credential binds (MSO `deviceKey`, SD-JWT `cnf.jwk`) is not the wallet's key
  /// for its proof, or it binds none.
  package static let deviceKeyMismatch = Self("deviceKeyMismatch")
  /// The device key named is already bound by a stored credential, or named twice in one
  /// response: each credential of a batch needs a key of its own (OpenID4VCI 1.0 §8.2).
  package static let deviceKeyReused = Self("deviceKeyReused")
  /// The device key named is not in the wallet's key store.
  package static let unknownDeviceKey = Self("unknownDeviceKey")
  /// Verification passed but storing failed.
  package static let storage = Self("storage")

  /// The device key the credential's proof was made with.
  package typealias Detail = String
}

extension DCError where Code == IssuanceRejectionCode {
  /// Creates a rejection of the credential made with the device key `deviceKeyID`.
  package init(
    _ code: IssuanceRejectionCode, _ reason: String, deviceKeyID: String,
    underlying: (any Error & Sendable)? = nil, file: String = #fileID, line: UInt = #line
  ) {
    self.init(code, reason, detail: deviceKeyID, underlying: underlying, file: file, line: line)
  }

  /// The device key the credential's proof was made with (empty when not known yet).
  package var deviceKeyID: String { detail ?? "" }

  func forKey(_ id: String) -> IssuanceRejection {
    IssuanceRejection(code, reason, deviceKeyID: id, underlying: underlying, file: file, line: line)
  }
}

/// An issued credential that passed every check, with what the wallet stores about it.
package struct VerifiedIssuedCredential: Sendable {
  /// The credential's format.
  package let format: CredentialFormat
  /// Its doctype or vct.
  package let type: String
  /// The bytes to store exactly as issued (IssuerSigned CBOR, or the SD-JWT as UTF-8).
  package let issued: [UInt8]
  /// How the issuer was established.
  package let trustBasis: IssuanceTrustBasis
  /// Start and end of validity, if any.
  package let validFrom: Date?
  /// End of validity, if any.
  package let validUntil: Date?
  /// The issuer's name from its certificate or `iss`, if any.
  package let issuerName: String?
  /// A second line for lists (the holder's name), if any.
  package let subtitle: String?
  /// Authority key identifiers of the issuer chain, leaf first.
  package let issuerAuthorityKeyIdentifiers: [[UInt8]]
  /// The trust anchor the issuer's chain reached (a wallet anchor, or the issuer's published
  /// IACA); nil for an SD-JWT verified with an issuer metadata key.
  package let anchor: Certificate?
}

/// Verifies issued credentials before storage (OpenID4VCI 1.0 §8.3 leaves this to the wallet;
/// HAIP requires it): values in, a typed result out; no HTTP and no store.
package enum IssuedCredentialVerifier {
  /// Tolerated clock skew, in seconds, for a credential that starts (or was signed) a moment
  /// after the wallet's clock: an issuer that signs `validFrom = now` would otherwise be refused
  /// by a wallet whose clock is a second behind.
  package static let defaultLeeway: TimeInterval = 60

  /// Verifies one credential.
  ///
  /// `mso_mdoc` (ISO 18013-5 §9.3.1): the issuerAuth signature by the document signer, its chain
  /// to one of `walletAnchors` (or, with `trust.trustIssuerPublishedIACAs`, to an IACA the
  /// issuer published), the docType equal to `expected.type`, `signed` not in the future and the
  /// `validFrom`..`validUntil` window at `now`, the digest of every IssuerSignedItem, and the
  /// MSO `deviceKey` equal to `deviceKey`.
  ///
  /// `dc+sd-jwt` (SD-JWT VC §3, RFC 9901 §7.1): no key binding JWT, the issuer signature via
  /// the `x5c` chain to one of `walletAnchors` (or, with `trust.trustIssuerPublishedIACAs`, to
  /// an IACA the issuer published; or, with `trust.trustIssuerMetadataKeys`, with a key of
  /// `trust.issuerMetadataKeys` for that `iss`), `typ`, every Disclosure referenced by a
  /// digest, `nbf`/`exp`/`iat` at `now`, `vct` equal to `expected.type`, and `cnf.jwk` equal to
  /// `deviceKey`.
  package static func verify(
    _ credential: IssuedCredential.Payload, deviceKey: ECPublicKey,
    expected: IssuanceExpectation, walletAnchors: [Certificate],
    trust: IssuanceTrustOptions = IssuanceTrustOptions(), at now: Date,
    leeway: TimeInterval = defaultLeeway
  ) -> Result<VerifiedIssuedCredential, IssuanceRejection> {
    var chains = DocumentSignerChainMemo()
    return verify(
      credential, deviceKey: deviceKey, expected: expected, walletAnchors: walletAnchors,
      trust: trust, at: now, leeway: leeway, chains: &chains)
  }

  /// As the public `verify`, reusing the document signer chain the credentials of a batch
  /// share (`chains`).
  static func verify(
    _ credential: IssuedCredential.Payload, deviceKey: ECPublicKey,
    expected: IssuanceExpectation, walletAnchors: [Certificate],
    trust: IssuanceTrustOptions = IssuanceTrustOptions(), at now: Date,
    leeway: TimeInterval = defaultLeeway, chains: inout DocumentSignerChainMemo
  ) -> Result<VerifiedIssuedCredential, IssuanceRejection> {
    guard credential.format == expected.format else {
      return .failure(formatMismatch(credential.format, expected))
    }
    switch ParsedIssuedCredential.parse(credential) {
    case .failure(let rejection): return .failure(rejection)
    case .success(let parsed):
      return verify(
        parsed, deviceKey: deviceKey, expected: expected, walletAnchors: walletAnchors,
        trust: trust, at: now, leeway: leeway, chains: &chains)
    }
  }

  /// Verifies a credential already parsed (the wallet parses each one once: to find the key
  /// it binds, then to verify it), reusing the document signer chain of the batch's previous
  /// mdoc when its x5chain is the same (`chains`).
  static func verify(
    _ credential: ParsedIssuedCredential, deviceKey: ECPublicKey,
    expected: IssuanceExpectation, walletAnchors: [Certificate],
    trust: IssuanceTrustOptions = IssuanceTrustOptions(), at now: Date,
    leeway: TimeInterval = defaultLeeway, chains: inout DocumentSignerChainMemo
  ) -> Result<VerifiedIssuedCredential, IssuanceRejection> {
    guard credential.format == expected.format else {
      return .failure(formatMismatch(credential.format, expected))
    }
    do throws(IssuanceRejection) {
      switch credential {
      case .mdoc(let issuerSigned, let bytes):
        return .success(
          try verifyMdoc(
            issuerSigned, bytes: bytes, deviceKey: deviceKey, expected: expected,
            walletAnchors: walletAnchors, trust: trust, at: now, leeway: leeway, chains: &chains))
      case .sdJWT(let sdJWT, let text):
        return .success(
          try verifySDJWT(
            sdJWT, text: text, deviceKey: deviceKey, expected: expected,
            walletAnchors: walletAnchors, trust: trust, at: now, leeway: leeway))
      }
    } catch {
      return .failure(error)
    }
  }

  static func formatMismatch(_ format: CredentialFormat, _ expected: IssuanceExpectation)
    -> IssuanceRejection
  {
    IssuanceRejection(
      .formatMismatch,
      "configuration \(expected.configurationID) is \(expected.format.rawValue) but the credential is \(format.rawValue)"
    )
  }

  static func verifyMdoc(
    _ issuerSigned: IssuerSigned, bytes: [UInt8], deviceKey: ECPublicKey,
    expected: IssuanceExpectation, walletAnchors: [Certificate], trust: IssuanceTrustOptions,
    at now: Date, leeway: TimeInterval, chains: inout DocumentSignerChainMemo
  ) throws(IssuanceRejection) -> VerifiedIssuedCredential {
    let validity = issuerSigned.mso.validityInfo
    // ISO 18013-5 §9.1.2.4: `signed` is when the MSO was signed; one from the future is refused.
    guard validity.signed <= now.addingTimeInterval(leeway) else {
      throw IssuanceRejection(
        .notYetValid, "the MSO was signed at \(validity.signed), after the wallet's time \(now)")
    }
    // A validFrom within the leeway ahead is evaluated at validFrom; everything else at now.
    let at =
      validity.validFrom > now && validity.validFrom <= now.addingTimeInterval(leeway)
      ? validity.validFrom : now
    let (verification, basis) = try verifyMdocIssuer(
      issuerSigned, deviceKey: deviceKey, expected: expected, walletAnchors: walletAnchors,
      trust: trust, at: at, chains: &chains)
    guard verification.deviceKey == deviceKey else {
      throw IssuanceRejection(
        .deviceKeyMismatch, "the MSO deviceKey is not the key the wallet made the proof with")
    }
    let mso = issuerSigned.mso
    var anchor: Certificate?
    if case .trusted(let chain) = verification.trust { anchor = chain.anchor }
    // The bytes as received: they parsed to `issuerSigned`, which keeps every item's and the
    // MSO's encoding, so re-encoding would give them back at the cost of a copy.
    return VerifiedIssuedCredential(
      format: .msoMdoc, type: mso.docType, issued: bytes, trustBasis: basis,
      validFrom: mso.validityInfo.validFrom, validUntil: mso.validityInfo.validUntil,
      issuerName: verification.documentSigner.subject.organization
        ?? verification.documentSigner.subject.commonName,
      subtitle: MdocDisplay.subtitle(issuerSigned),
      issuerAuthorityKeyIdentifiers: [verification.documentSigner.authorityKeyIdentifier]
        .compactMap { $0 }, anchor: anchor)
  }

  /// Verifies the mdoc's issuer signature and chain at `at` against the wallet's anchors or,
  /// with the holder's opt-in, the issuer's published IACAs: the verification and which
  /// anchors it rests on.
  private static func verifyMdocIssuer(
    _ issuerSigned: IssuerSigned, deviceKey: ECPublicKey, expected: IssuanceExpectation,
    walletAnchors: [Certificate], trust: IssuanceTrustOptions, at: Date,
    chains: inout DocumentSignerChainMemo
  ) throws(IssuanceRejection) -> (IssuerVerification, IssuanceTrustBasis) {
    let verification: IssuerVerification
    var basis = IssuanceTrustBasis.walletAnchor
    do throws(MdocError) {
      let chain = try chains.chain(of: issuerSigned)
      do throws(MdocError) {
        verification = try issuerSigned.verify(
          expectedDocType: expected.type, trustAnchors: walletAnchors, at: at,
          requireTrustedIssuer: true, documentSignerChain: chain, expectedDeviceKey: deviceKey)
      } catch
        where error.code == .untrustedIssuer && trust.trustIssuerPublishedIACAs
        && !trust.issuerPublishedIACAs.isEmpty
      {
        // The holder's explicit opt-in: the issuer's published IACAs, for this issuance only.
        verification = try issuerSigned.verify(
          expectedDocType: expected.type, trustAnchors: trust.issuerPublishedIACAs, at: at,
          requireTrustedIssuer: true, documentSignerChain: chain, expectedDeviceKey: deviceKey)
        basis = .issuerPublishedIACA
      }
    } catch {
      throw IssuanceRejection(mdocCode(error.code), "the mdoc does not verify: \(error.reason)")
        .with(underlying: error)
    }
    return (verification, basis)
  }

  static func verifySDJWT(
    _ sdJWT: SDJWT, text: String, deviceKey: ECPublicKey, expected: IssuanceExpectation,
    walletAnchors: [Certificate], trust: IssuanceTrustOptions, at now: Date,
    leeway: TimeInterval
  ) throws(IssuanceRejection) -> VerifiedIssuedCredential {
    guard sdJWT.keyBindingJWT == nil else {
      throw IssuanceRejection(.malformed, "an issued SD-JWT carries no key binding JWT")
    }
    let options = SDJWTVerificationOptions(profile: .sdJWTVC, leeway: leeway)
    let verified: VerifiedSDJWT
    let basis: IssuanceTrustBasis
    do throws(SDJWTError) {
      (verified, basis) = try verifySDJWTIssuer(
        sdJWT, walletAnchors: walletAnchors, trust: trust, at: now, options: options)
    } catch {
      throw IssuanceRejection(sdJWTCode(error.code), "the SD-JWT does not verify: \(error.reason)")
        .with(underlying: error)
    }
    guard verified.vct == expected.type else {
      throw IssuanceRejection(
        .typeMismatch,
        "the SD-JWT's vct is \(verified.vct ?? "(none)") but configuration \(expected.configurationID) is \(expected.type)"
      )
    }
    guard let holderKey = verified.holderKey else {
      throw IssuanceRejection(.deviceKeyMismatch, "the SD-JWT binds no key (no cnf)")
    }
    guard holderKey == deviceKey else {
      throw IssuanceRejection(
        .deviceKeyMismatch, "the SD-JWT's cnf.jwk is not the key the wallet made the proof with")
    }
    return VerifiedIssuedCredential(
      format: .sdJWT, type: expected.type, issued: Array(text.utf8), trustBasis: basis,
      validFrom: verified.payload["nbf"]?.double.map { Date(timeIntervalSince1970: $0) },
      validUntil: verified.payload["exp"]?.double.map { Date(timeIntervalSince1970: $0) },
      issuerName: verified.issuer, subtitle: verified.payload["given_name"]?.string,
      issuerAuthorityKeyIdentifiers: verified.issuerCertificateChain.compactMap(
        \.authorityKeyIdentifier), anchor: anchor(of: verified))
  }

  /// The SD-JWT verified against the wallet's anchors; failing that, and only by the holder's
  /// opt-ins, against the IACAs the issuer published (the same opt-in as for its mdocs), then
  /// with its JWT VC issuer metadata keys (SD-JWT VC §5, for the issuer they name only).
  static func verifySDJWTIssuer(
    _ sdJWT: SDJWT, walletAnchors: [Certificate], trust: IssuanceTrustOptions, at now: Date,
    options: SDJWTVerificationOptions
  ) throws(SDJWTError) -> (VerifiedSDJWT, IssuanceTrustBasis) {
    do throws(SDJWTError) {
      return (
        try sdJWT.verify(trustAnchors: walletAnchors, at: now, options: options), .walletAnchor
      )
    } catch  where error.code == .untrustedIssuer {
      let iacas = trust.acceptedPublishedIACAs
      guard !iacas.isEmpty else {
        return (try verifyWithMetadataKeys(sdJWT, error, trust, now, options), .issuerMetadataKey)
      }
      do throws(SDJWTError) {
        // The holder's explicit opt-in: the issuer's published IACAs, for this issuance only.
        return (
          try sdJWT.verify(trustAnchors: iacas, at: now, options: options), .issuerPublishedIACA
        )
      } catch  where error.code == .untrustedIssuer {
        return (try verifyWithMetadataKeys(sdJWT, error, trust, now, options), .issuerMetadataKey)
      }
    }
  }

  /// SD-JWT VC §5: the issuer's JWT VC issuer metadata keys, by the holder's opt-in, for the
  /// issuer they were published for only; `error` (the chain's refusal) otherwise.
  static func verifyWithMetadataKeys(
    _ sdJWT: SDJWT, _ error: SDJWTError, _ trust: IssuanceTrustOptions, _ now: Date,
    _ options: SDJWTVerificationOptions
  ) throws(SDJWTError) -> VerifiedSDJWT {
    guard trust.trustIssuerMetadataKeys, let metadata = trust.issuerMetadataKeys,
      !metadata.keys.isEmpty
    else { throw error }
    guard sdJWT.issuerPayload["iss"]?.string == metadata.issuer else {
      throw SDJWTError(
        .untrustedIssuer,
        "\(error.reason); the issuer metadata keys are for \(metadata.issuer), not iss \(sdJWT.issuerPayload["iss"]?.string ?? "(none)")"
      )
    }
    var last = error
    for key in metadata.keys {
      do throws(SDJWTError) {
        return try sdJWT.verify(issuerKey: key, now: now, options: options)
      } catch  where key != metadata.keys.last && error.code == .invalidIssuerSignature {
        last = error
      }
    }
    throw last
  }

  /// The anchor an SD-JWT's `x5c` reached; nil when it verified with a key.
  static func anchor(of verified: VerifiedSDJWT) -> Certificate? {
    if case .certificateChain(let chain) = verified.trust { return chain.anchor }
    return nil
  }

  static func mdocCode(_ code: MdocErrorCode) -> IssuanceRejectionCode {
    switch code {
    case .untrustedIssuer: .untrustedIssuer
    case .invalidIssuerSignature: .invalidSignature
    case .digestMismatch: .digestMismatch
    case .docTypeMismatch: .typeMismatch
    case .expired: .expired
    case .notYetValid: .notYetValid
    default: .malformed
    }
  }

  static func sdJWTCode(_ code: SDJWTErrorCode) -> IssuanceRejectionCode {
    switch code {
    case .untrustedIssuer: .untrustedIssuer
    case .invalidIssuerSignature: .invalidSignature
    case .unreferencedDisclosure, .invalidDisclosure, .duplicateDisclosure, .duplicateDigest:
      .digestMismatch
    case .expired: .expired
    case .notYetValid: .notYetValid
    case .missingHolderBinding: .deviceKeyMismatch
    default: .malformed
    }
  }
}

/// An issued credential parsed once, with the text or bytes it was parsed from.
enum ParsedIssuedCredential: Sendable {
  case mdoc(IssuerSigned, bytes: [UInt8])
  case sdJWT(SDJWT, text: String)

  /// Parses a payload; `.malformed` when it is not an IssuerSigned or an SD-JWT.
  static func parse(_ payload: IssuedCredential.Payload)
    -> Result<ParsedIssuedCredential, IssuanceRejection>
  {
    switch payload {
    case .msoMdoc(let bytes):
      do {
        return .success(.mdoc(try IssuerSigned(bytes: bytes), bytes: bytes))
      } catch {
        return .failure(
          IssuanceRejection(
            .malformed, "not an ISO 18013-5 IssuerSigned structure: \(error.reason)",
            underlying: error))
      }
    case .sdJWT(let text):
      do {
        return .success(.sdJWT(try SDJWT(serialized: text), text: text))
      } catch {
        return .failure(
          IssuanceRejection(.malformed, "not an SD-JWT: \(error.reason)", underlying: error))
      }
    }
  }

  var format: CredentialFormat {
    switch self {
    case .mdoc: .msoMdoc
    case .sdJWT: .sdJWT
    }
  }

  /// The key the credential binds (MSO `deviceKey`, SD-JWT `cnf.jwk`), nil when none parses.
  var boundKey: ECPublicKey? {
    switch self {
    case .mdoc(let issuerSigned, _): try? issuerSigned.mso.deviceKey.publicKey()
    case .sdJWT(let sdJWT, _): (try? sdJWT.holderKey()) ?? nil
    }
  }

  /// A test of whether the credential binds a key: `boundKey == key`, made once per credential
  /// and without importing an mdoc's COSE_Key (`COSEKey.isEncoding(of:)` compares its curve
  /// and coordinates with the key's; a COSE_Key that would not import equals no key).
  /// Verification imports and checks it again unless it is the expected key.
  var keyBinding: (ECPublicKey) -> Bool {
    switch self {
    case .mdoc(let issuerSigned, _):
      let bound = issuerSigned.mso.deviceKey
      return { bound.isEncoding(of: $0) }
    case .sdJWT:
      let bound = boundKey
      return { bound == $0 }
    }
  }
}

extension IssuanceRejection {
  fileprivate func with(underlying: any Error & Sendable) -> IssuanceRejection {
    IssuanceRejection(
      code, reason, deviceKeyID: deviceKeyID, underlying: underlying, file: file, line: line)
  }
}
