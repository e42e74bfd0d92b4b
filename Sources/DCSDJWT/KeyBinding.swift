public import DCCrypto
package import DCJOSE
public import DCJSON
public import Foundation

/// What the holder signs into a Key Binding JWT (RFC 9901 §4.3; OpenID4VP 1.0 §8.4 for the
/// transaction data hashes).
public struct KeyBinding: Sendable {
  /// The holder key named by the credential's `cnf.jwk` (RFC 9901 §4.3).
  package var signer: any Signer
  /// `aud`: over the DC API this is `origin:<origin>` (OpenID4VP 1.0 Appendix A.4).
  package var audience: String
  /// `nonce` from the verifier's request (RFC 9901 §4.3).
  package var nonce: String
  /// `iat`, the time of signing (RFC 9901 §4.3).
  package var issuedAt: Date
  /// `transaction_data_hashes`, when the request carried transaction data (OpenID4VP 1.0 §8.4).
  package var transactionDataHashes: [String]?
  /// `transaction_data_hashes_alg`, when not the default `sha-256` (OpenID4VP 1.0 §8.4).
  package var transactionDataHashesAlg: String?

  /// Creates the Key Binding parameters (RFC 9901 §4.3).
  public init(
    signer: any Signer, audience: String, nonce: String, issuedAt: Date,
    transactionDataHashes: [String]? = nil, transactionDataHashesAlg: String? = nil
  ) {
    self.signer = signer
    self.audience = audience
    self.nonce = nonce
    self.issuedAt = issuedAt
    self.transactionDataHashes = transactionDataHashes
    self.transactionDataHashesAlg = transactionDataHashesAlg
  }
}

/// The checked claims of a Key Binding JWT (RFC 9901 §4.3, §7.3).
public struct VerifiedKeyBinding: Sendable, Hashable {
  /// The KB-JWT as received (RFC 9901 §4.3).
  package let jwt: CompactJWS
  /// `iat` (RFC 9901 §4.3).
  public let issuedAt: Date
  /// `aud` (RFC 9901 §4.3).
  public let audience: String
  /// `nonce` (RFC 9901 §4.3).
  public let nonce: String
  /// `sd_hash` (RFC 9901 §4.3.1).
  package let sdHash: String
  /// `transaction_data_hashes` when present (OpenID4VP 1.0 §8.4).
  public let transactionDataHashes: [String]?
  /// `transaction_data_hashes_alg` when present (OpenID4VP 1.0 §8.4).
  package let transactionDataHashesAlg: String?
}

/// A verified presentation: the credential and, when the holder signed one, the Key Binding
/// (RFC 9901 §7.3).
public struct VerifiedPresentation: Sendable, Hashable {
  /// The credential with the presented claims (RFC 9901 §7.1).
  public let credential: VerifiedSDJWT
  /// The Key Binding JWT's claims; nil only for a credential without `cnf` presented without
  /// one (RFC 9901 §7.3 step 3).
  public let keyBinding: VerifiedKeyBinding?
}

extension SDJWT {
  /// Builds a presentation of the claims at `paths`: the Disclosures at and below each path
  /// plus those of every enclosing claim, in the issued order and with their exact text, then
  /// `~` and the KB-JWT when `keyBinding` is given (RFC 9901 §4.3, §7.2).
  ///
  /// - Throws: `claimNotFound` for a path that names nothing; `missingHolderBinding` when
  ///   `keyBinding`'s signer is not the credential's `cnf.jwk`; `signingFailed`.
  public func present(disclosing paths: [ClaimPath], keyBinding: KeyBinding?) throws(SDJWTError)
    -> String
  {
    try present(disclosing: paths, keyBinding: keyBinding, processed: try process())
  }

  /// ``present(disclosing:keyBinding:)`` with this SD-JWT's ``process()`` result already at
  /// hand, so that answering a request does not decode, parse and hash every Disclosure again.
  ///
  /// - Parameter processed: the result of this SD-JWT's own ``process()``.
  /// - Parameter holderKey: this SD-JWT's ``holderKey()`` when already converted; nil to
  ///   convert `cnf.jwk` here.
  package func present(
    disclosing paths: [ClaimPath], keyBinding: KeyBinding?, processed: ProcessedSDJWT,
    holderKey: ECPublicKey? = nil
  ) throws(SDJWTError) -> String {
    let needed = try processed.disclosureTexts(for: paths)
    var chosen: [Disclosure] = []
    chosen.reserveCapacity(needed.count)
    if needed.count <= 32 {
      // A few texts: compared directly (they share storage with `disclosures`, so a match is a
      // pointer comparison), cheaper than hashing each one.
      for disclosure in disclosures where needed.contains(disclosure.encoded) {
        chosen.append(disclosure)
      }
    } else {
      let set = Set(needed)
      for disclosure in disclosures where set.contains(disclosure.encoded) {
        chosen.append(disclosure)
      }
    }
    return try present(disclosures: chosen, keyBinding: keyBinding, knownHolderKey: holderKey)
  }

  /// Builds a presentation of exactly the Disclosures whose claim path and content satisfy
  /// `predicate`, plus those of their enclosing claims; nested Disclosures below a chosen one
  /// are added only when chosen too (RFC 9901 §7.2).
  public func present(
    where predicate: (ClaimPath, Disclosure) -> Bool, keyBinding: KeyBinding?
  ) throws(SDJWTError) -> String {
    let processed = try process()
    let chosen = processed.disclosuresByPath.filter { predicate($0.key, $0.value) }.keys
    let needed = processed.disclosures(including: Set(chosen))
    return try present(
      disclosures: disclosures.filter { needed.contains($0) }, keyBinding: keyBinding)
  }

  private func present(
    disclosures chosen: [Disclosure], keyBinding: KeyBinding?, knownHolderKey: ECPublicKey? = nil
  ) throws(SDJWTError) -> String {
    // RFC 9901 §4: the JWT, each Disclosure, each followed by `~`, then the optional KB-JWT.
    var body = issuerSignedJWT.compactSerialization
    body.reserveCapacity(
      body.utf8.count + chosen.reduce(1) { $0 + $1.encoded.utf8.count + 1 } + 512)
    for disclosure in chosen {
      body += "~"
      body += disclosure.encoded
    }
    body += "~"
    guard let keyBinding else { return body }
    // A key converted by the caller stands for `cnf.jwk`; otherwise convert it here.
    let cnfKey: ECPublicKey?
    if let knownHolderKey { cnfKey = knownHolderKey } else { cnfKey = try holderKey() }
    guard let holderKey = cnfKey else {
      throw SDJWTError(.missingHolderBinding, "the credential has no cnf key to bind to")
    }
    guard holderKey == keyBinding.signer.publicKey else {
      throw SDJWTError(.missingHolderBinding, "the key binding signer is not the cnf.jwk key")
    }
    let sdHash = hashAlgorithm.base64URLDigest(ofASCII: body)
    var claims: [(key: String, value: JSONValue)] = [
      ("iat", try numericDate(keyBinding.issuedAt)),
      ("aud", .string(keyBinding.audience)),
      ("nonce", .string(keyBinding.nonce)),
      ("sd_hash", .string(sdHash)),
    ]
    if let hashes = keyBinding.transactionDataHashes {
      claims.append(("transaction_data_hashes", .array(hashes.map { .string($0) })))
    }
    if let alg = keyBinding.transactionDataHashesAlg {
      claims.append(("transaction_data_hashes_alg", .string(alg)))
    }
    do {
      let kb = try JWS.sign(
        payload: JSONValue.object(claims).serializedBytes(),
        protectedHeader: .object([
          ("typ", "kb+jwt"),
          ("alg", .string(JWSAlgorithm(curve: keyBinding.signer.curve).rawValue)),
        ]),
        signer: keyBinding.signer)
      body += kb
      return body
    } catch {
      throw SDJWTError(.signingFailed, "KB-JWT: \(error.reason)", underlying: error)
    }
  }
}
