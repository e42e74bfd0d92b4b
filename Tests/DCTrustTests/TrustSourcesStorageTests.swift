import DCEncoding
import DCTrust
import DCX509
import DCX509TestSupport
import Foundation
import Testing

/// Issue 29: the stored form of a verified list (what the wallet's store keeps, authenticated)
/// and the anchor certificates `TrustSources` hands to checks that take a set of roots.
@Suite struct TrustSourcesStorageTests {
  let pki: TestPKI

  init() throws { pki = try TestPKI() }

  func list(nextUpdate: Date? = nil, granted: Bool = true) throws -> TrustedList {
    TrustedList(
      kind: .lote, operatorName: "Operator", sequenceNumber: 7,
      issued: Date(timeIntervalSince1970: 1_700_000_000.5),
      nextUpdate: nextUpdate ?? pki.clock.addingTimeInterval(86_400),
      entities: [
        TrustedEntity(
          name: "Issuer", serviceType: .pidProvider, certificates: [pki.iaca], isGranted: granted),
        TrustedEntity(
          name: "Readers", serviceType: .accessCertificateAuthority,
          certificates: [pki.readerRoot], isGranted: true),
        TrustedEntity(
          name: "Unmapped", serviceType: .other("urn:example:svc"), certificates: [pki.iaca],
          isGranted: true),
      ],
      pointers: [
        TrustedListPointer(
          location: try #require(URL(string: "https://lists.example/de.xml")), kind: .tsl,
          territory: "DE", operatorCertificates: [pki.readerRoot])
      ], signer: pki.readerRoot, digest: [1, 2, 3])
  }

  @Test func storedFormRoundTrips() throws {
    let original = try list()
    #expect(try TrustedList(storedForm: original.storedForm) == original)
  }

  @Test func storedFormThatIsNotAListIsMalformed() {
    for bytes in [Array("not json".utf8), Array("{}".utf8), Array(#"{"kind":"lote"}"#.utf8)] {
      #expect {
        try TrustedList(storedForm: bytes)
      } throws: { ($0 as? TrustError)?.code == .malformed }
    }
  }

  /// A VICAL entry listed for another docType must not trust an mDL once the list is read back
  /// from the store: its docType restriction is part of the stored form.
  @Test func storedFormKeepsAVICALEntrysDocTypes() throws {
    let vical = TrustedList(
      kind: .vical, operatorName: "Provider", sequenceNumber: 3, issued: pki.clock,
      nextUpdate: pki.clock.addingTimeInterval(86_400),
      entities: [
        TrustedEntity(
          name: "PID Authority", serviceType: .mdocIssuingAuthority, certificates: [pki.iaca],
          isGranted: true, docTypes: ["eu.europa.ec.eudi.pid.1"])
      ], pointers: [], signer: pki.readerRoot, digest: [4, 5])
    let reloaded = try TrustedList(storedForm: vical.storedForm)
    #expect(reloaded == vical)
    #expect(reloaded.entities.first?.docTypes == ["eu.europa.ec.eudi.pid.1"])
    let sources = TrustSources(lists: [reloaded])
    let mdl = sources.decide(
      chain: [pki.documentSigner], for: .credentialIssuer, at: pki.clock,
      docType: "org.iso.18013.5.1.mDL")
    guard case .untrusted(let reasons) = mdl else {
      Issue.record("an entry listed for the PID trusts an mDL after a reload")
      return
    }
    #expect(reasons.contains { if case .docTypeNotListed = $0 { true } else { false } })
    let pid = sources.decide(
      chain: [pki.documentSigner], for: .credentialIssuer, at: pki.clock,
      docType: "eu.europa.ec.eudi.pid.1")
    #expect(pid.source != nil)
  }

  @Test func storedDocTypesThatAreNotStringsAreMalformed() throws {
    let entity = #"{"name":"A","service":"mdocIssuingAuthority","certificates":[],"granted":true"#
    let list = #"{"kind":"vical","operator":"P","issued":0,"pointers":[],"signer":""#
    let der = Base64.encode(pki.readerRoot.derBytes)
    let bytes = Array(
      (list + der + #"","digest":"","entities":["# + entity + #","docTypes":[1]}]}"#).utf8)
    #expect {
      try TrustedList(storedForm: bytes)
    } throws: { ($0 as? TrustError)?.code == .malformed }
  }

  @Test func anchorCertificatesFollowPurposeGrantDisabledAndStale() throws {
    let fresh = TrustSources(lists: [try list()])
    #expect(fresh.anchorCertificates(for: .credentialIssuer, at: pki.clock) == [pki.iaca])
    #expect(fresh.anchorCertificates(for: .reader, at: pki.clock) == [pki.readerRoot])
    #expect(fresh.anchorCertificates(for: .walletProvider, at: pki.clock).isEmpty)
    let withdrawn = TrustSources(lists: [try list(granted: false)])
    #expect(withdrawn.anchorCertificates(for: .credentialIssuer, at: pki.clock).isEmpty)
    let disabled = TrustSources(lists: [try list()], disabledKinds: [.lote])
    #expect(disabled.anchorCertificates(for: .reader, at: pki.clock).isEmpty)
    let stale = try list(nextUpdate: pki.clock.addingTimeInterval(-1))
    #expect(
      TrustSources(lists: [stale]).anchorCertificates(for: .credentialIssuer, at: pki.clock)
        .isEmpty)
    #expect(
      TrustSources(lists: [stale], staleListPolicy: .accept).anchorCertificates(
        for: .credentialIssuer, at: pki.clock) == [pki.iaca])
    // An anchor comes first and is not repeated when a list names it too.
    let both = TrustSources(
      anchors: [TrustAnchor(id: "a", certificate: pki.iaca, purposes: [.credentialIssuer])],
      lists: [try list()])
    #expect(both.anchorCertificates(for: .credentialIssuer, at: pki.clock) == [pki.iaca])
  }
}
