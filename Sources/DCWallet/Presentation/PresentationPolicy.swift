public import DCTrust

/// What the wallet refuses, as one value (compare swift-certificates' `VerifierPolicy`): whether
/// a requester must be authenticated, whether an issuer must chain to a configured anchor, and
/// which protocols may be answered.
///
/// The defaults are the safe ones a wallet can ship with: a credential whose issuer cannot be
/// established is not imported, and every protocol the wallet implements may be answered. A
/// requester is not required to be authenticated by default, since most pages send unsigned
/// requests; the authentication result is recorded on ``PresentationRequest/requesterAuthentication``
/// for the consent screen either way.
public struct WalletPolicy: Sendable, Hashable {
  /// Answer only requesters authenticated through a chain to a configured anchor, for every
  /// protocol: Annex C doc requests signed by readers that chain to a reader anchor, and signed
  /// OpenID4VP requests whose verifier chains to a verifier anchor (an unsigned OpenID4VP request
  /// is not authenticated, OpenID4VP 1.0 Appendix A.3.1).
  public var requireAuthenticatedRequester: Bool
  /// Import a credential whose issuer cannot be established (no issuer anchor is configured);
  /// it is then stored with `issuerTrust == .unverified`. Off by default: without an anchor the
  /// import is refused. With anchors configured, the chain must reach one whatever this says.
  public var acceptsUnverifiedIssuers: Bool
  /// The protocol identifiers that may be answered; nil: every protocol the wallet implements.
  public var allowedProtocols: Set<String>?
  /// Answer a request whose requester authentication is `invalid` (an Annex C reader signature
  /// or a signed OpenID4VP request that does not verify), treating the requester as unverified:
  /// it is then known only by its origin, and the consent screen shows the failure. Off by
  /// default: such a request is refused (``Refusal/Code/invalidRequesterAuthentication``).
  /// `requireAuthenticatedRequester` refuses it whatever this says.
  public var acceptsInvalidRequesterAuthentication: Bool
  /// How the holder authenticates an in-person (ISO 18013-5 proximity) response: a
  /// deviceSignature by default, or a deviceMac (see `InPersonDeviceAuthentication`).
  public var inPersonDeviceAuthentication: InPersonDeviceAuthentication
  /// Present a credential whose last known Token Status List status is invalid (revoked) or
  /// suspended (see ``StoredCredential/lastKnownStatus``). Off by default: such a credential is
  /// not offered, and a request only it could answer is refused
  /// (``Refusal/Code/credentialInvalid``, ``Refusal/Code/credentialSuspended``). A credential
  /// whose status is unknown or was never checked is presented either way.
  public var presentsInvalidOrSuspendedCredentials: Bool
  /// The registration-certificate providers (ETSI TS 119 475) a relying party's registration
  /// certificate must chain to: anchors or list entries of that service type. None by default:
  /// a registration certificate then shows as invalid (untrusted signer).
  public var registrationCertificateProviders: TrustSources
  /// Refuse a request whose registration certificate shows over-asking (a claim beyond the
  /// registration), belongs to another relying party, or does not verify
  /// (``Refusal/Code/overAsking``). Off by default: the consent screen marks over-asked claims.
  /// A request without a registration certificate is not refused for it.
  public var refusesOverAsking: Bool
  /// How the revocation of every certificate chain the wallet validates is checked (RFC 5280
  /// §6.3): issuers on import, issuance and status lists, readers and verifiers, registration
  /// certificates. Nil (the default): revocation is not checked. Here rather than in the
  /// stored trust sources because it is the app's choice for the wallet as a whole, like the
  /// other refusals of this policy, and can differ per call (`resolve(_:origin:policy:)`).
  public var revocation: RevocationSettings?

  /// A policy; every parameter defaults to the safe value.
  public init(
    requireAuthenticatedRequester: Bool = false, acceptsUnverifiedIssuers: Bool = false,
    allowedProtocols: Set<String>? = nil, acceptsInvalidRequesterAuthentication: Bool = false,
    inPersonDeviceAuthentication: InPersonDeviceAuthentication = .signature,
    presentsInvalidOrSuspendedCredentials: Bool = false,
    registrationCertificateProviders: TrustSources = TrustSources(),
    refusesOverAsking: Bool = false, revocation: RevocationSettings? = nil
  ) {
    self.revocation = revocation
    self.registrationCertificateProviders = registrationCertificateProviders
    self.refusesOverAsking = refusesOverAsking
    self.presentsInvalidOrSuspendedCredentials = presentsInvalidOrSuspendedCredentials
    self.inPersonDeviceAuthentication = inPersonDeviceAuthentication
    self.acceptsInvalidRequesterAuthentication = acceptsInvalidRequesterAuthentication
    self.requireAuthenticatedRequester = requireAuthenticatedRequester
    self.acceptsUnverifiedIssuers = acceptsUnverifiedIssuers
    self.allowedProtocols = allowedProtocols
  }

  /// Whether a protocol may be answered under this policy.
  package func allows(protocolIdentifier: String) -> Bool {
    allowedProtocols?.contains(protocolIdentifier) ?? true
  }
}

/// Why one request of an envelope was not answered (a typed value: the wallet never joins
/// refusals into text; a UI renders them).
public struct Refusal: Error, Sendable, Hashable {
  /// What kind of refusal this is.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    private init(_ name: String) { self.name = name }
    public var description: String { name }

    /// The wallet does not implement the protocol.
    public static let unsupportedProtocol = Code("unsupportedProtocol")
    /// The policy does not allow the protocol (``WalletPolicy/allowedProtocols``).
    public static let protocolNotAllowed = Code("protocolNotAllowed")
    /// The request is malformed or fails a protocol check (signature, origin, encryption key).
    public static let invalidRequest = Code("invalidRequest")
    /// The requester's signature does not verify (``RequesterAuthentication/invalid(reason:)``)
    /// and the policy does not accept that (``WalletPolicy/acceptsInvalidRequesterAuthentication``).
    public static let invalidRequesterAuthentication = Code("invalidRequesterAuthentication")
    /// The policy requires an authenticated requester and this one is not.
    public static let requesterNotAuthenticated = Code("requesterNotAuthenticated")
    /// No stored credential can answer the request.
    public static let noMatchingCredential = Code("noMatchingCredential")
    /// The request's bytes do not decode as CBOR (ISO 18013-5 in person: answered with status
    /// 11, §8.3.2.1.2.3); a request that decodes but is not valid is `invalidRequest` (status 12).
    public static let undecodableRequest = Code("undecodableRequest")
    /// The only credentials that could answer are known to be revoked: their last known status
    /// is INVALID (draft-ietf-oauth-status-list §7.1) and the policy does not present them
    /// (``WalletPolicy/presentsInvalidOrSuspendedCredentials``).
    public static let credentialInvalid = Code("credentialInvalid")
    /// The only credentials that could answer are known to be suspended (status SUSPENDED,
    /// §7.1) and the policy does not present them.
    public static let credentialSuspended = Code("credentialSuspended")
    /// The request asks for a zero-knowledge proof (ISO 18013-5 2nd edition `zkRequest`, or an
    /// OpenID4VP `mso_mdoc_zk` Credential Query) that this wallet cannot prove: no circuit the
    /// wallet was given (`Wallet.init`'s `zeroKnowledgeCircuits`) is named, the circuit does not prove the requested
    /// elements, or the protocol is not Annex C. It refuses rather than answer with the
    /// disclosed elements and the issuer's signature.
    public static let zeroKnowledgeProofUnsupported = Code("zeroKnowledgeProofUnsupported")
    /// The policy refuses over-asking (``WalletPolicy/refusesOverAsking``) and the request's
    /// registration certificate shows it: a claim beyond the registration, another relying
    /// party's certificate, or one that does not verify.
    public static let overAsking = Code("overAsking")
  }

  /// The protocol identifier of the refused request.
  public let protocolIdentifier: String
  /// What kind of refusal this is.
  public let code: Code
  /// A human-readable explanation (for diagnostics and logs).
  public let reason: String
  /// The error the refusal was decided on, when there was one (a protocol module's error).
  public let underlying: (any Error & Sendable)?

  /// A refusal of one request.
  public init(
    protocolIdentifier: String, code: Code, reason: String,
    underlying: (any Error & Sendable)? = nil
  ) {
    self.protocolIdentifier = protocolIdentifier
    self.code = code
    self.reason = reason
    self.underlying = underlying
  }

  public static func == (lhs: Refusal, rhs: Refusal) -> Bool {
    lhs.protocolIdentifier == rhs.protocolIdentifier && lhs.code == rhs.code
      && lhs.reason == rhs.reason
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(protocolIdentifier)
    hasher.combine(code)
    hasher.combine(reason)
  }
}

/// How the requester was authenticated, recorded as a value and never thrown (compare multipaz's
/// `readerAuthenticated`): the policy decides what is refused, the consent screen shows it.
public enum RequesterAuthentication: Sendable, Hashable {
  /// Authenticated through a chain to a configured anchor: every Annex C doc request signed by a
  /// trusted reader, or a signed OpenID4VP request whose verifier chain is trusted (OpenID4VP 1.0
  /// Appendix A.3.2).
  case trusted
  /// Signed, but the chain does not reach a configured anchor (or only some doc requests are
  /// signed). The reason is for diagnostics and may quote a certificate's subject.
  case untrusted(reason: String)
  /// A signature or certificate that does not verify. The reason is for diagnostics.
  case invalid(reason: String)
  /// Nothing authenticates the requester beyond the origin (an unsigned request).
  case absent
}
