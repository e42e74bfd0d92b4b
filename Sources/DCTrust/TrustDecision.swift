public import DCX509
public import Foundation

/// A certificate trusted directly, without a list (a hand-added anchor).
public struct TrustAnchor: Sendable, Hashable {
  /// The anchor's identifier where it is stored.
  public let id: String
  /// The certificate.
  public let certificate: Certificate
  /// What chains ending at it may be trusted for.
  public let purposes: Set<TrustPurpose>

  /// Creates an anchor.
  public init(id: String, certificate: Certificate, purposes: Set<TrustPurpose>) {
    self.id = id
    self.certificate = certificate
    self.purposes = purposes
  }
}

/// What made a chain trusted: a hand-added anchor, or an entry of a verified list.
public enum TrustSource: Sendable, Hashable {
  /// A hand-added anchor, by its identifier.
  case anchor(id: String, subject: String)
  /// An entity of a trusted list: the list (kind, operator, issue date), the entity's name and
  /// the service type that made it fit the purpose.
  case listEntry(
    kind: TrustedListKind, operatorName: String, issued: Date, entity: String,
    serviceType: TrustServiceType)
}

/// Why a source did not make a chain trusted.
public enum TrustRefusal: Sendable, Hashable {
  /// No anchor and no list entry is configured for the purpose.
  case noSourceForPurpose
  /// A list was not consulted because its kind is disabled.
  case listDisabled(kind: TrustedListKind, operatorName: String)
  /// A list was not consulted because it is past its next update and the policy refuses stale
  /// lists.
  case listStale(kind: TrustedListKind, operatorName: String, nextUpdate: Date)
  /// An entry fits the chain's issuer but its service is not granted (withdrawn).
  case serviceNotGranted(kind: TrustedListKind, entity: String)
  /// An entry fits the chain's issuer but is listed for other document types (a VICAL entry's
  /// docType) than the one asked about.
  case docTypeNotListed(kind: TrustedListKind, entity: String, docType: String)
  /// The chain does not validate to any candidate; the reason from the last candidate tried.
  case chainNotValidated(reason: String)
}

/// A trust decision: which source made the chain trusted, or why none did.
public enum TrustDecision: Sendable, Hashable {
  /// The chain validates to a source that is trusted for the purpose.
  case trusted(TrustedChain, source: TrustSource)
  /// No source trusted the chain; every reason found, in the order sources were consulted.
  case untrusted([TrustRefusal])

  /// The source when trusted.
  public var source: TrustSource? {
    if case .trusted(_, let source) = self { return source }
    return nil
  }
}

/// Whether lists past their next update are used.
public enum StaleListPolicy: Sendable, Hashable {
  /// A stale list is reported and not used (the default).
  case refuse
  /// A stale list is used; the decision is the same as with a fresh list.
  case accept
}

/// The anchors and verified lists a trust decision may use, and the policy for using them.
public struct TrustSources: Sendable, Hashable {
  /// Hand-added anchors.
  public var anchors: [TrustAnchor]
  /// Verified trusted lists.
  public var lists: [TrustedList]
  /// List kinds that are not consulted.
  public var disabledKinds: Set<TrustedListKind>
  /// Whether stale lists are used.
  public var staleListPolicy: StaleListPolicy
  /// The CRLs every decision checks the chain against (RFC 5280 §6.3); nil for the revocation
  /// setting of the role making the decision (a wallet's `WalletPolicy.revocation`, a
  /// verifier's configuration), if any.
  public var revocation: RevocationCheck?

  /// Creates the sources; by default no list kind is disabled, stale lists are refused and
  /// revocation is checked only as the role's revocation setting asks.
  public init(
    anchors: [TrustAnchor] = [], lists: [TrustedList] = [],
    disabledKinds: Set<TrustedListKind> = [], staleListPolicy: StaleListPolicy = .refuse,
    revocation: RevocationCheck? = nil
  ) {
    self.anchors = anchors
    self.lists = lists
    self.disabledKinds = disabledKinds
    self.staleListPolicy = staleListPolicy
    self.revocation = revocation
  }

  /// Decides whether `chain` (leaf first) is trusted for `purpose` at `time`: anchors first,
  /// then each list's granted entries whose service type serves the purpose, in order; each
  /// candidate is checked with RFC 5280 path validation and `policies`, and against the CRLs of
  /// the `revocation` argument when given, else of the sources' own, else of the revocation
  /// setting of the role whose operation is running (RFC 5280 §6.3). With `docType` (an mdoc's), a list entry
  /// restricted to other document types does not make the chain trusted.
  public func decide(
    chain: [Certificate], for purpose: TrustPurpose, at time: Date,
    policies: [any CertificatePolicy] = [], revocation: RevocationCheck? = nil,
    docType: String? = nil
  ) -> TrustDecision {
    let revocation = revocation ?? self.revocation ?? RevocationCheck.current
    var refusals: [TrustRefusal] = []
    var lastFailure: String?
    var consulted = false
    for anchor in anchors where anchor.purposes.contains(purpose) {
      consulted = true
      let validator = CertificateValidator(
        trustAnchors: [anchor.certificate], policies: policies, revocation: revocation)
      switch validator.validate(chain: chain, at: time) {
      case .trusted(let path):
        return .trusted(
          path, source: .anchor(id: anchor.id, subject: anchor.certificate.subject.description))
      case .untrusted(let reason), .malformed(let reason): lastFailure = reason
      }
    }
    for list in lists {
      let entries = list.entities.filter { $0.serviceType.purposes.contains(purpose) }
      guard !entries.isEmpty else { continue }
      consulted = true
      if disabledKinds.contains(list.kind) {
        refusals.append(.listDisabled(kind: list.kind, operatorName: list.operatorName))
        continue
      }
      if list.isStale(at: time), staleListPolicy == .refuse, let nextUpdate = list.nextUpdate {
        refusals.append(
          .listStale(kind: list.kind, operatorName: list.operatorName, nextUpdate: nextUpdate))
        continue
      }
      for entity in entries {
        let validator = CertificateValidator(
          trustAnchors: entity.certificates, policies: policies, revocation: revocation)
        switch validator.validate(chain: chain, at: time) {
        case .trusted(let path):
          guard entity.isGranted else {
            refusals.append(.serviceNotGranted(kind: list.kind, entity: entity.name))
            continue
          }
          if let docType, !entity.docTypes.isEmpty, !entity.docTypes.contains(docType) {
            refusals.append(
              .docTypeNotListed(kind: list.kind, entity: entity.name, docType: docType))
            continue
          }
          return .trusted(
            path,
            source: .listEntry(
              kind: list.kind, operatorName: list.operatorName, issued: list.issued,
              entity: entity.name, serviceType: entity.serviceType))
        case .untrusted(let reason), .malformed(let reason): lastFailure = reason
        }
      }
    }
    if !consulted { refusals.append(.noSourceForPurpose) }
    if let lastFailure { refusals.append(.chainNotValidated(reason: lastFailure)) }
    return .untrusted(refusals)
  }
}
