import DCCrypto
import DCTestSupport
import DCTrust
import DCX509
import DCX509TestSupport
import Foundation
import Testing

/// What the Python peers made, for one test.
struct PeerLists {
  let pki: TestPKI
  let json: [String: String]

  init() throws {
    pki = try TestPKI()
    let input =
      "{\"now\": \(Int(pki.clock.timeIntervalSince1970)), \"iaca\": \"\(hexString(pki.iaca.derBytes))\", "
      + "\"readerRoot\": \"\(hexString(pki.readerRoot.derBytes))\"}"
    let output = try PythonPeer.run(VICALInteropTests.makeLists, input: input)
    json = try #require(
      try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: String])
  }

  var operatorCertificate: Certificate {
    get throws { try Certificate(derEncoded: hexBytes(try #require(json["operator"]))) }
  }

  func bytes(_ name: String) throws -> [UInt8] { hexBytes(try #require(json[name])) }

  func vical(_ name: String = "vical", operators: [Certificate]? = nil) throws -> TrustedList {
    try TrustedList.verifyingVICAL(
      bytes(name), operatorCertificates: operators ?? [operatorCertificate], at: pki.clock)
  }

  func expectRefused(
    _ name: String, _ code: TrustErrorCode, rical: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let input = try bytes(name)
    let operators = [try operatorCertificate]
    let error = #expect(throws: TrustError.self, sourceLocation: sourceLocation) {
      if rical {
        _ = try TrustedList.verifyingRICAL(input, operatorCertificates: operators, at: pki.clock)
      } else {
        _ = try TrustedList.verifyingVICAL(input, operatorCertificates: operators, at: pki.clock)
      }
    }
    #expect(
      error?.code == code, "\(name): \(String(describing: error))", sourceLocation: sourceLocation)
  }
}

extension VICALInteropTests {
  @Test("a pycose VICAL verifies and its IACA makes the document signer trusted", .pythonPeers)
  func vicalFromPycose() throws {
    try PythonPeer.require("vical interop")
    let peer = try PeerLists()
    let list = try peer.vical()
    #expect(list.kind == .vical)
    #expect(list.operatorName == "Py VICAL Provider")
    #expect(list.sequenceNumber == 42)
    #expect(list.issued == peer.pki.clock.addingTimeInterval(-86_400))
    #expect(list.nextUpdate == peer.pki.clock.addingTimeInterval(86_400))
    #expect(list.signer.subject.commonName == "Py VICAL Signer")
    #expect(list.entities.count == 1)
    let entity = try #require(list.entities.first)
    #expect(entity.name == "Py Issuing Authority")
    #expect(entity.serviceType == .mdocIssuingAuthority)
    #expect(entity.certificates == [peer.pki.iaca])
    #expect(entity.docTypes == ["org.iso.18013.5.1.mDL"])
    let decision = TrustSources(lists: [list]).decide(
      chain: [peer.pki.documentSigner], for: .credentialIssuer, at: peer.pki.clock)
    #expect(
      decision.source
        == .listEntry(
          kind: .vical, operatorName: "Py VICAL Provider", issued: list.issued,
          entity: "Py Issuing Authority", serviceType: .mdocIssuingAuthority))
    // The signer's chain up to the operator in x5chain verifies too; a tdate as epoch (tag 1)
    // is not a tdate.
    #expect(try peer.vical("vicalChain").entities.count == 1)
    try peer.expectRefused("epochDate", .malformed)
  }

  @Test("a pycose RICAL verifies and its reader CA authenticates readers", .pythonPeers)
  func ricalFromPycose() throws {
    try PythonPeer.require("rical interop")
    let peer = try PeerLists()
    let list = try TrustedList.verifyingRICAL(
      peer.bytes("rical"), operatorCertificates: [peer.operatorCertificate], at: peer.pki.clock)
    #expect(list.kind == .rical)
    #expect(list.operatorName == "Py RICAL Provider")
    #expect(list.sequenceNumber == 7)
    #expect(list.entities.map(\.name) == ["Py Reader CA"])
    #expect(list.entities.first?.serviceType == .mdocReaderAuthority)
    let decision = TrustSources(lists: [list]).decide(
      chain: [peer.pki.reader], for: .reader, at: peer.pki.clock)
    #expect(decision.source != nil)
    try peer.expectRefused("ricalExpired", .expired, rical: true)
  }

  @Test("tampered, another key, another operator, expired signer: refused", .pythonPeers)
  func refused() throws {
    try PythonPeer.require("vical interop")
    let peer = try PeerLists()
    var tampered = try peer.bytes("vical")
    // "Py VICAL Provider" becomes "Py VICAL Provides" inside the signed payload.
    let needle = Array("Provider".utf8)
    let at = try #require(
      (0...(tampered.count - needle.count)).first {
        Array(tampered[$0..<$0 + needle.count]) == needle
      })
    tampered[at + needle.count - 1] = UInt8(ascii: "s")
    let operators = [try peer.operatorCertificate]
    let error = #expect(throws: TrustError.self) {
      try TrustedList.verifyingVICAL(tampered, operatorCertificates: operators, at: peer.pki.clock)
    }
    #expect(error?.code == .invalidSignature)
    try peer.expectRefused("otherKey", .invalidSignature)
    try peer.expectRefused("otherOperator", .untrustedSigner)
    try peer.expectRefused("signerExpired", .expired)
    // The operator's own key, but a list imported for another operator.
    let strangerKey = try ECPrivateKey(curve: .p256)
    let stranger = try CertificateBuilder.readerRoot(
      commonName: "Py VICAL Operator", publicKey: strangerKey.publicKey,
      notBefore: peer.pki.clock.addingTimeInterval(-60),
      notAfter: peer.pki.clock.addingTimeInterval(86_400)
    ).selfSigned(signer: strangerKey)
    #expect(throws: TrustError.self) { try peer.vical(operators: [stranger]) }
  }

  @Test("a stale VICAL verifies but is not used unless the policy accepts it", .pythonPeers)
  func stale() throws {
    try PythonPeer.require("vical interop")
    let peer = try PeerLists()
    let list = try peer.vical("stale")
    #expect(list.isStale(at: peer.pki.clock))
    let refused = TrustSources(lists: [list]).decide(
      chain: [peer.pki.documentSigner], for: .credentialIssuer, at: peer.pki.clock)
    #expect(refused.source == nil)
    let accepted = TrustSources(lists: [list], staleListPolicy: .accept).decide(
      chain: [peer.pki.documentSigner], for: .credentialIssuer, at: peer.pki.clock)
    #expect(accepted.source != nil)
  }

  @Test(
    "a document signer the IACA revoked is refused though the VICAL lists the IACA", .pythonPeers)
  func revoked() throws {
    try PythonPeer.require("vical interop")
    let peer = try PeerLists()
    let list = try peer.vical()
    let crl = try CertificateRevocationList.build(
      issuer: peer.pki.iaca, signer: peer.pki.iacaKey,
      thisUpdate: peer.pki.clock.addingTimeInterval(-60),
      nextUpdate: peer.pki.clock.addingTimeInterval(3600),
      revoked: [
        RevokedCertificate(
          serialNumber: peer.pki.documentSigner.serialNumber,
          revocationDate: peer.pki.clock.addingTimeInterval(-60))
      ])
    let decision = TrustSources(lists: [list], revocation: RevocationCheck(crls: [crl])).decide(
      chain: [peer.pki.documentSigner], for: .credentialIssuer, at: peer.pki.clock)
    guard case .untrusted(let refusals) = decision,
      case .chainNotValidated(let reason) = refusals.last
    else {
      Issue.record("expected a refusal, got \(decision)")
      return
    }
    #expect(reason.contains("is revoked"))
  }

  @Test("malformed lists are typed errors", .pythonPeers)
  func malformed() throws {
    try PythonPeer.require("vical interop")
    let peer = try PeerLists()
    try peer.expectRefused("noChain", .malformed)
    try peer.expectRefused("notMap", .malformed)
    try peer.expectRefused("serialMismatch", .malformed)
    try peer.expectRefused("noDocType", .malformed)
    try peer.expectRefused("version2", .unsupported)
    // A RICAL read as a VICAL lacks vicalProvider.
    try peer.expectRefused("rical", .malformed)
  }

  @Test("pycose verifies the VICAL and RICAL this package signs", .pythonPeers)
  func pycoseVerifiesOurs() throws {
    try PythonPeer.require("vical interop")
    let builder = try ListBuilder()
    for kind in [TrustedListKind.vical, .rical] {
      let bytes = try builder.sign(kind: kind, entries: 2)
      let output = try PythonPeer.run(Self.verifyList, input: hexString(bytes))
      let json = try #require(
        try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
      #expect(json["verified"] as? Bool == true)
      #expect(json["provider"] as? String == "Dev Provider")
      #expect(json["entries"] as? Int == 2)
      #expect(json["date"] as? String == "2026-05-28T20:26:40Z")
    }
  }
}

/// Signs lists with the package builder.
struct ListBuilder {
  let pki: TestPKI
  let operatorKey: ECPrivateKey
  let operatorCertificate: Certificate

  init() throws {
    pki = try TestPKI()
    operatorKey = try ECPrivateKey(curve: .p256)
    operatorCertificate = try CertificateBuilder.readerRoot(
      commonName: "Dev List Operator", publicKey: operatorKey.publicKey,
      notBefore: pki.clock.addingTimeInterval(-86_400),
      notAfter: pki.clock.addingTimeInterval(86_400 * 365)
    ).selfSigned(signer: operatorKey)
  }

  func sign(kind: TrustedListKind, entries: Int, certificate: Certificate? = nil) throws -> [UInt8]
  {
    let certificate = certificate ?? (kind == .vical ? pki.iaca : pki.readerRoot)
    let entity = TrustedEntity(
      name: "Dev Entity", serviceType: .mdocIssuingAuthority, certificates: [certificate],
      isGranted: true, docTypes: ["org.iso.18013.5.1.mDL", "eu.europa.ec.eudi.pid.1"])
    return try TrustedList.signingCertificateAuthorityList(
      kind: kind, provider: "Dev Provider", issued: pki.clock, nextUpdate: pki.clock + 86_400,
      issueID: 3, entities: Array(repeating: entity, count: entries), signer: operatorKey,
      signerChain: [operatorCertificate])
  }
}

@Suite("VICAL and RICAL: the package builder, limits")
struct CertificateAuthorityListTests {
  @Test("what the builder signs reads back", arguments: [TrustedListKind.vical, .rical])
  func roundTrip(kind: TrustedListKind) throws {
    let builder = try ListBuilder()
    let bytes = try builder.sign(kind: kind, entries: 1)
    let verify =
      kind == .vical ? TrustedList.verifyingVICAL : TrustedList.verifyingRICAL
    let list = try verify(bytes, [builder.operatorCertificate], builder.pki.clock)
    #expect(list.kind == kind)
    #expect(list.operatorName == "Dev Provider")
    #expect(list.sequenceNumber == 3)
    #expect(list.signer == builder.operatorCertificate)
    #expect(list.entities.first?.name == "Dev Entity")
    #expect(list.entities.first?.docTypes.count == (kind == .vical ? 2 : 0))
    #expect(list.digest == SHA256.hash(data: bytes))
  }

  @Test("4096 certificateInfos are read, 4097 are refused")
  func entryLimit() throws {
    let builder = try ListBuilder()
    let atLimit = try builder.sign(kind: .vical, entries: 4096)
    let list = try TrustedList.verifyingVICAL(
      atLimit, operatorCertificates: [builder.operatorCertificate], at: builder.pki.clock)
    #expect(list.entities.count == 4096)
    let past = try builder.sign(kind: .vical, entries: 4097)
    let error = #expect(throws: TrustError.self) {
      try TrustedList.verifyingVICAL(
        past, operatorCertificates: [builder.operatorCertificate], at: builder.pki.clock)
    }
    #expect(error?.code == .tooLarge)
  }

  @Test("4 MiB is read as a list, one byte more is refused before decoding")
  func sizeLimit() throws {
    let builder = try ListBuilder()
    let limit = 4 * 1024 * 1024
    let error = #expect(throws: TrustError.self) {
      try TrustedList.verifyingVICAL(
        [UInt8](repeating: 0, count: limit + 1),
        operatorCertificates: [builder.operatorCertificate], at: builder.pki.clock)
    }
    #expect(error?.code == .tooLarge)
    let atLimit = #expect(throws: TrustError.self) {
      try TrustedList.verifyingVICAL(
        [UInt8](repeating: 0, count: limit),
        operatorCertificates: [builder.operatorCertificate], at: builder.pki.clock)
    }
    #expect(atLimit?.code == .malformed)
  }
}
