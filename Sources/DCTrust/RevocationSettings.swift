public import DCX509
import Foundation

/// How a role (a wallet, a verifier, a reader, an issuer checking attestations) checks the
/// revocation of every certificate chain it validates (RFC 5280 §6.3): CRLs given as values,
/// optionally the CRLs each presented certificate names in its cRLDistributionPoints fetched
/// before its chain is validated, and what an unknown status means.
///
/// The role fetches (through ``CRLFetcher``: its URL policy, issuer-signature check and cache
/// until nextUpdate) before validating, so chain validation itself stays free of I/O. A
/// distribution point that cannot be fetched or gives no CRL its issuer signed leaves the
/// status unknown: `RevocationPolicy.failOpen` (DCX509) accepts the chain and reports the status in
/// `TrustedChain.revocation`; `RevocationPolicy.failClosed` refuses it.
public struct RevocationSettings: Sendable, Hashable {
  /// CRLs given as values (`--crl FILE`), always consulted.
  public var crls: [CertificateRevocationList]
  /// What validation does when a status is unknown.
  public var policy: RevocationPolicy
  /// Fetches the distribution points of every presented certificate before its chain is
  /// validated; nil: only ``crls`` are consulted.
  public var fetcher: CRLFetcher?

  /// Creates the settings; by default unknown status is accepted and reported.
  public init(
    crls: [CertificateRevocationList] = [], policy: RevocationPolicy = .failOpen,
    fetcher: CRLFetcher? = nil
  ) {
    self.crls = crls
    self.policy = policy
    self.fetcher = fetcher
  }

  /// The check for chains made of `presented` certificates, issued under `issuers` (the role's
  /// anchors, whose keys sign the CRLs of the certificates they issued): the given CRLs plus,
  /// with a fetcher, a current CRL for each distribution point the certificates name.
  package func check(for presented: [Certificate], issuers: [Certificate] = []) async
    -> RevocationCheck
  {
    var crls = crls
    if let fetcher {
      crls += await fetcher.revocationCheck(for: presented, issuers: issuers).crls
    }
    return RevocationCheck(crls: crls, policy: policy)
  }

  public static func == (lhs: RevocationSettings, rhs: RevocationSettings) -> Bool {
    lhs.crls == rhs.crls && lhs.policy == rhs.policy
      && lhs.fetcher.map(ObjectIdentifier.init) == rhs.fetcher.map(ObjectIdentifier.init)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(crls)
    hasher.combine(policy)
    hasher.combine(fetcher.map(ObjectIdentifier.init))
  }
}

extension RevocationSettings? {
  /// Runs `body` (a role's operation) with the check for `presented` in effect for every chain
  /// it validates; without settings, revocation is not checked.
  package func inEffect<R, E: Error>(
    for presented: [Certificate] = [], issuers: [Certificate] = [],
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws(E) -> R
  ) async throws(E) -> R {
    let check: RevocationCheck? =
      if let settings = self { await settings.check(for: presented, issuers: issuers) } else {
        nil
      }
    return try await RevocationCheck.inEffect(check, isolation: isolation, body)
  }
}
