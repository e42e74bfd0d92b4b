import DCTrust
import DCX509
import DCX509TestSupport
import Foundation
import Testing

/// `TrustSources.decide`: anchors, list entries by service type, disabled kinds, stale lists,
/// withdrawn services.
@Suite struct TrustDecisionTests {
  let pki: TestPKI

  init() throws { pki = try TestPKI() }

  func list(
    kind: TrustedListKind = .vical, serviceType: TrustServiceType = .mdocIssuingAuthority,
    granted: Bool = true, nextUpdate: Date? = nil
  ) -> TrustedList {
    TrustedList(
      kind: kind, operatorName: "Test Operator", sequenceNumber: 1,
      issued: pki.clock.addingTimeInterval(-86_400),
      nextUpdate: nextUpdate ?? pki.clock.addingTimeInterval(86_400),
      entities: [
        TrustedEntity(
          name: "Test Issuer", serviceType: serviceType, certificates: [pki.iaca],
          isGranted: granted)
      ], signer: pki.readerRoot, digest: [])
  }

  @Test func listEntryTrustsTheChainAndNamesItself() {
    let decision = TrustSources(lists: [list()]).decide(
      chain: [pki.documentSigner], for: .credentialIssuer, at: pki.clock)
    #expect(
      decision.source
        == .listEntry(
          kind: .vical, operatorName: "Test Operator",
          issued: pki.clock.addingTimeInterval(-86_400), entity: "Test Issuer",
          serviceType: .mdocIssuingAuthority))
  }

  @Test func anchorTrustsTheChainBeforeLists() {
    let anchor = TrustAnchor(id: "a1", certificate: pki.iaca, purposes: [.credentialIssuer])
    let decision = TrustSources(anchors: [anchor], lists: [list()]).decide(
      chain: [pki.documentSigner], for: .credentialIssuer, at: pki.clock)
    #expect(decision.source == .anchor(id: "a1", subject: pki.iaca.subject.description))
  }

  @Test func serviceTypeMustServeThePurpose() {
    let decision = TrustSources(lists: [list()]).decide(
      chain: [pki.documentSigner], for: .reader, at: pki.clock)
    #expect(decision == .untrusted([.noSourceForPurpose]))
  }

  @Test func disabledKindIsNotConsulted() {
    let decision = TrustSources(lists: [list()], disabledKinds: [.vical]).decide(
      chain: [pki.documentSigner], for: .credentialIssuer, at: pki.clock)
    #expect(decision == .untrusted([.listDisabled(kind: .vical, operatorName: "Test Operator")]))
  }

  @Test func staleListIsRefusedUnlessThePolicyAcceptsIt() {
    let due = pki.clock.addingTimeInterval(-60)
    let stale = list(nextUpdate: due)
    let refused = TrustSources(lists: [stale]).decide(
      chain: [pki.documentSigner], for: .credentialIssuer, at: pki.clock)
    #expect(
      refused
        == .untrusted([.listStale(kind: .vical, operatorName: "Test Operator", nextUpdate: due)]))
    let accepted = TrustSources(lists: [stale], staleListPolicy: .accept).decide(
      chain: [pki.documentSigner], for: .credentialIssuer, at: pki.clock)
    #expect(accepted.source != nil)
  }

  @Test func withdrawnServiceIsNotTrusted() {
    let decision = TrustSources(lists: [list(granted: false)]).decide(
      chain: [pki.documentSigner], for: .credentialIssuer, at: pki.clock)
    #expect(decision == .untrusted([.serviceNotGranted(kind: .vical, entity: "Test Issuer")]))
  }

  @Test func chainOutsideEveryEntryIsUntrustedWithTheReason() {
    let decision = TrustSources(lists: [list()]).decide(
      chain: [pki.reader], for: .credentialIssuer, at: pki.clock)
    guard case .untrusted(let refusals) = decision, case .chainNotValidated = refusals.last else {
      Issue.record("expected chainNotValidated, got \(decision)")
      return
    }
  }
}
