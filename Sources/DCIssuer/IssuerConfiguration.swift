public import DCCBOR
public import DCCrypto
public import DCJSON
public import DCOpenID4VCI
public import DCX509
public import Foundation

/// Everything an OpenID4VCI issuer (with its own authorization server) is set up with: what it
/// issues, how it signs, which protections it demands. The handlers of ``CredentialIssuerService``
/// publish it as metadata and enforce it.
public struct IssuerConfiguration: Sendable {
  /// The Credential Issuer Identifier (OpenID4VCI 1.0 §12.2.1), also the authorization server's
  /// `issuer`: every endpoint URL is it with a path appended.
  public var credentialIssuer: IssuerIdentifier
  /// The issuer's `display` (§12.2.4).
  public var display: [IssuerDisplay]
  /// The credentials offered, in metadata order.
  public var credentials: [IssuableCredential]
  /// `batch_credential_issuance.batch_size` (§12.2.4, at least 2); nil for one proof per request.
  package var batchSize: Int?
  /// Whether the token and credential endpoints demand DPoP (RFC 9449); HAIP 1.0 requires it.
  package var requireDPoP: Bool
  /// How the server's DPoP nonces (RFC 9449 §8, §9) are used.
  package var dpopNonces: DPoPNoncePolicy
  /// How long a `c_nonce` from the nonce endpoint stays valid (§7), in seconds.
  package var cNonceLifetime: TimeInterval
  /// How transaction codes for pre-authorized offers are made (§4.1.1 `tx_code`).
  public var transactionCode: TransactionCodeSettings
  /// The document signer / SD-JWT issuer key.
  public var signer: any Signer
  /// The signer's certificate chain, leaf first: mdoc `x5chain`, SD-JWT and signed metadata
  /// `x5c`.
  package var certificateChain: [Certificate]
  /// The key and chain SD-JWT VCs are signed with, when not ``signer`` and its certificate chain:
  /// an SD-JWT VC's `x5c` leaf must name the `iss` (the credential issuer identifier) as a URI
  /// SAN, or its https host as a dNSName (SD-JWT VC §3.5), which an mdoc document signer need not.
  public var sdJWTSigning: IssuerSigningIdentity?
  /// The IACAs published at `mdoc_iacas_uri` as `{"iacas": [{"certificate": "<base64 DER>"}]}`.
  package var iacas: [Certificate]
  /// Whether authorization requests are approved without showing the consent page.
  package var autoApprove: Bool
  /// Credentials issued later through the deferred endpoint (§9); nil for none.
  public var deferred: DeferredIssuanceSettings?
  /// Client attestation (OAuth attestation-based client authentication) and key attestation
  /// (Appendix D) demands, with the wallet providers trusted for both.
  public var attestation: AttestationPolicy
  /// Credential response encryption (§8.3, §10); nil when not offered.
  package var responseEncryption: ResponseEncryptionPolicy?
  /// Whether the well-known metadata is also served signed (§12.2.3) to a client that asks
  /// for `application/jwt`.
  package var signsMetadata: Bool
  /// `require_pushed_authorization_requests` (RFC 9126 §5).
  package var requirePushedAuthorizationRequests: Bool
  /// Lifetimes of codes, tokens and nonces.
  package var lifetimes: IssuerLifetimes
  /// Token Status Lists (draft-ietf-oauth-status-list, issue 15): when set, every credential
  /// issued gets an index in a list kept in the store, carries a reference to it (SD-JWT VC
  /// `status.status_list`, mdoc MSO `status`), and the lists are published at
  /// `/status-lists/<id>`, signed by ``signer`` with ``certificateChain``; nil for none.
  package var statusLists: StatusListSettings?
  /// The issuer's registration certificate (ETSI TS 119 475, JWT text or CWT bytes), published
  /// in the metadata's `issuer_info` (ETSI TS 119 472-3 §4.2.3); nil for none.
  public var registrationCertificate: [UInt8]? = nil

  /// Creates a configuration; the defaults are HAIP's (DPoP with nonces, no PAR requirement).
  public init(
    credentialIssuer: IssuerIdentifier, display: [IssuerDisplay] = [],
    credentials: [IssuableCredential], batchSize: Int? = nil, requireDPoP: Bool = true,
    dpopNonces: DPoPNoncePolicy = .required(lifetime: 300), cNonceLifetime: TimeInterval = 300,
    transactionCode: TransactionCodeSettings = TransactionCodeSettings(),
    signer: any Signer, certificateChain: [Certificate], iacas: [Certificate] = [],
    autoApprove: Bool = false, deferred: DeferredIssuanceSettings? = nil,
    attestation: AttestationPolicy = AttestationPolicy(),
    responseEncryption: ResponseEncryptionPolicy? = nil, signsMetadata: Bool = false,
    requirePushedAuthorizationRequests: Bool = false,
    lifetimes: IssuerLifetimes = IssuerLifetimes(), statusLists: StatusListSettings? = nil
  ) {
    self.credentialIssuer = credentialIssuer
    self.display = display
    self.credentials = credentials
    self.batchSize = batchSize
    self.requireDPoP = requireDPoP
    self.dpopNonces = dpopNonces
    self.cNonceLifetime = cNonceLifetime
    self.transactionCode = transactionCode
    self.signer = signer
    self.certificateChain = certificateChain
    self.iacas = iacas
    self.autoApprove = autoApprove
    self.deferred = deferred
    self.attestation = attestation
    self.responseEncryption = responseEncryption
    self.signsMetadata = signsMetadata
    self.requirePushedAuthorizationRequests = requirePushedAuthorizationRequests
    self.lifetimes = lifetimes
    self.statusLists = statusLists
  }

  /// The credential configured under `id`.
  package func credential(id: String) -> IssuableCredential? {
    credentials.first { $0.id == id }
  }
}

/// A signing key with its certificate chain, leaf first.
public struct IssuerSigningIdentity: Sendable {
  /// The key that signs.
  public var signer: any Signer
  /// Its certificate chain, leaf first, sent as `x5c`.
  package var certificateChain: [Certificate]

  /// Creates an identity of `signer` certified by `certificateChain` (leaf first).
  public init(signer: any Signer, certificateChain: [Certificate]) {
    self.signer = signer
    self.certificateChain = certificateChain
  }
}

/// One credential configuration the issuer offers (one entry of
/// `credential_configurations_supported`) with the claims it puts in each credential.
public struct IssuableCredential: Sendable {
  /// What goes in the credential: the format, its type, and the claims.
  public enum Content: Sendable {
    /// An ISO 18013-5 mdoc of `doctype` with these data elements per namespace.
    case mdoc(
      doctype: String,
      nameSpaces: [(nameSpace: String, elements: [(identifier: String, value: CBOR)])])
    /// An SD-JWT VC of type `vct` with these claims; `selectivelyDisclosable` lists the claims
    /// made disclosable (every top-level claim when nil).
    case sdJWT(vct: String, claims: JSONValue, selectivelyDisclosable: [ClaimPath]? = nil)
  }

  /// The configuration id: what offers list in `credential_configuration_ids`.
  public var id: String
  /// The format and claims.
  public var content: Content
  /// `credential_metadata.display`; `display[0].name` is the name wallets show.
  public var display: [CredentialDisplay]
  /// `credential_metadata.claims`; nil to describe every configured claim without display
  /// names.
  package var claimDescriptions: [ClaimDescription]?
  /// `scope`, for authorization requests that use scopes.
  package var scope: String?
  /// How long an issued credential is valid, in seconds.
  package var validity: TimeInterval

  /// Creates a configuration.
  public init(
    id: String, content: Content, display: [CredentialDisplay] = [],
    claimDescriptions: [ClaimDescription]? = nil, scope: String? = nil,
    validity: TimeInterval = 365 * 86_400
  ) {
    self.id = id
    self.content = content
    self.display = display
    self.claimDescriptions = claimDescriptions
    self.scope = scope
    self.validity = validity
  }

  /// The format with its type.
  package var format: CredentialFormat {
    switch content {
    case .mdoc(let doctype, _): .msoMdoc(doctype: doctype)
    case .sdJWT(let vct, _, _): .sdJWTVC(vct: vct)
    }
  }

  /// The claims described in metadata: the configured descriptions, or one per claim.
  package var claims: [ClaimDescription] {
    if let claimDescriptions { return claimDescriptions }
    switch content {
    case .mdoc(_, let nameSpaces):
      // Appendix A.2.2: mdoc claim paths are [namespace, element identifier].
      return nameSpaces.flatMap { space in
        space.elements.map { ClaimDescription(path: [.key(space.nameSpace), .key($0.identifier)]) }
      }
    case .sdJWT(_, let claims, _):
      return (claims.object ?? []).map { ClaimDescription(path: [.key($0.key)]) }
    }
  }
}

/// How the issuer uses server-provided DPoP nonces (RFC 9449 §8 at the token endpoint, §9 at
/// the credential, deferred and notification endpoints).
public enum DPoPNoncePolicy: Sendable, Hashable {
  /// No nonce is demanded; proofs are fresh by `iat` and `jti` alone.
  case none
  /// Every proof must carry a nonce the server issued within `lifetime` seconds; a proof
  /// without one, or with a stale one, is answered `use_dpop_nonce` with a fresh `DPoP-Nonce`.
  case required(lifetime: TimeInterval)
}

/// How transaction codes are generated for pre-authorized offers (OpenID4VCI 1.0 §4.1.1).
public struct TransactionCodeSettings: Sendable, Hashable {
  /// `input_mode`: digits, or letters and digits.
  package var inputMode: TransactionCodeRequirement.InputMode
  /// `length`: the number of characters.
  package var length: Int
  /// `description`: how the user gets the code (at most 300 characters).
  public var description: String?
  /// Wrong codes accepted before the pre-authorized code is withdrawn (§13.6: limit guessing).
  package var maximumAttempts: Int

  /// Six digits, three attempts, by default.
  public init(
    inputMode: TransactionCodeRequirement.InputMode = .numeric, length: Int = 6,
    description: String? = nil, maximumAttempts: Int = 3
  ) {
    self.inputMode = inputMode
    self.length = length
    self.description = description
    self.maximumAttempts = maximumAttempts
  }

  /// The requirement published in the offer.
  package var requirement: TransactionCodeRequirement {
    TransactionCodeRequirement(inputMode: inputMode, length: length, description: description)
  }
}

/// Deferred issuance (OpenID4VCI 1.0 §9): which configurations are deferred and when they
/// become ready.
public struct DeferredIssuanceSettings: Sendable, Hashable {
  /// The configuration ids whose credential requests answer with a `transaction_id`.
  public var configurationIDs: Set<String>
  /// Seconds after the request at which the credential becomes ready; nil when only
  /// ``CredentialIssuerService/releaseDeferred(transactionID:)`` makes it ready.
  package var delay: TimeInterval?
  /// `interval`: the seconds a wallet waits before polling (§8.3).
  public var interval: Int
  /// How long a transaction id stays valid, in seconds.
  package var lifetime: TimeInterval

  /// Creates the settings.
  public init(
    configurationIDs: Set<String>, delay: TimeInterval? = nil, interval: Int = 5,
    lifetime: TimeInterval = 86_400
  ) {
    self.configurationIDs = configurationIDs
    self.delay = delay
    self.interval = interval
    self.lifetime = lifetime
  }
}

/// Client and key attestation demands (HAIP 1.0; OAuth attestation-based client
/// authentication; OpenID4VCI 1.0 Appendix D).
public struct AttestationPolicy: Sendable {
  /// Whether the PAR and token endpoints demand `OAuth-Client-Attestation` and
  /// `OAuth-Client-Attestation-PoP`; anonymous pre-authorized access is then refused.
  public var requireClientAttestation: Bool
  /// Whether every key proof must carry a `key_attestation` (§12.2.4
  /// `key_attestations_required`).
  public var requireKeyAttestation: Bool
  /// The wallet providers' public keys: client and key attestations must be signed by one.
  package var trustedWalletProviderKeys: [ECPublicKey]

  /// Creates a policy; by default nothing is demanded and nothing trusted.
  public init(
    requireClientAttestation: Bool = false, requireKeyAttestation: Bool = false,
    trustedWalletProviderKeys: [ECPublicKey] = []
  ) {
    self.requireClientAttestation = requireClientAttestation
    self.requireKeyAttestation = requireKeyAttestation
    self.trustedWalletProviderKeys = trustedWalletProviderKeys
  }
}

/// Credential response encryption (OpenID4VCI 1.0 §10): offered, or required.
public struct ResponseEncryptionPolicy: Sendable, Hashable {
  /// `encryption_required`: requests without `credential_response_encryption` are refused.
  public var required: Bool

  /// Creates the policy.
  public init(required: Bool) { self.required = required }
}

/// Lifetimes of what the issuer hands out, in seconds.
public struct IssuerLifetimes: Sendable, Hashable {
  /// A pre-authorized code (§4.1.1: short lived).
  package var preAuthorizedCode: TimeInterval
  /// An `issuer_state` and an offer served by reference.
  package var offer: TimeInterval
  /// A pushed authorization request's `request_uri` (RFC 9126 §2.2 `expires_in`).
  package var pushedAuthorizationRequest: TimeInterval
  /// An authorization code (RFC 6749 §4.1.2: at most 10 minutes recommended).
  public var authorizationCode: TimeInterval
  /// An access token.
  package var accessToken: TimeInterval
  /// A refresh token.
  package var refreshToken: TimeInterval
  /// The record of issued credentials, which the notification endpoint refers to.
  package var issuedCredentials: TimeInterval

  /// The defaults.
  public init(
    preAuthorizedCode: TimeInterval = 600, offer: TimeInterval = 3_600,
    pushedAuthorizationRequest: TimeInterval = 60, authorizationCode: TimeInterval = 120,
    accessToken: TimeInterval = 3_600, refreshToken: TimeInterval = 30 * 86_400,
    issuedCredentials: TimeInterval = 90 * 86_400
  ) {
    self.preAuthorizedCode = preAuthorizedCode
    self.offer = offer
    self.pushedAuthorizationRequest = pushedAuthorizationRequest
    self.authorizationCode = authorizationCode
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.issuedCredentials = issuedCredentials
  }
}
