import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCTrust
import DCX509
import DCX509TestSupport
import Foundation
import Testing

/// A development list operator: a key and its self-signed certificate.
struct ListOperator {
  let key: ECPrivateKey
  let certificate: Certificate

  init(_ name: String = "Test List Operator", pki: TestPKI, validFor days: Double = 365) throws {
    key = try ECPrivateKey(curve: .p256)
    certificate = try CertificateBuilder.readerRoot(
      commonName: name, publicKey: key.publicKey,
      notBefore: pki.clock.addingTimeInterval(-86_400 * 30),
      notAfter: pki.clock.addingTimeInterval(86_400 * days)
    ).selfSigned(signer: key)
  }
}

extension ETSIListContent {
  /// A list naming the test IACA as a PID provider, issued a day before the clock.
  static func sample(
    pki: TestPKI, nextUpdate: TimeInterval = 86_400, status: String? = nil,
    entries: [ETSIListContent.Entry]? = nil
  ) -> ETSIListContent {
    ETSIListContent(
      operatorName: "Test Operator", territory: "UT", sequenceNumber: 3,
      issued: pki.clock.addingTimeInterval(-86_400),
      nextUpdate: pki.clock.addingTimeInterval(nextUpdate),
      entries: entries ?? [
        .init(
          name: "Test PID Provider", serviceTypeURI: ETSIServiceTypeURI.pidIssuance,
          certificates: [pki.iaca], status: status)
      ])
  }
}

func expectTrustError(
  _ code: TrustErrorCode, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> Void
) {
  do {
    try body()
    Issue.record("expected TrustError.\(code)", sourceLocation: sourceLocation)
  } catch let error as TrustError {
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
  } catch {
    Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
  }
}

/// ETSI TS 119 602 LoTEs signed with JAdES: read, decide, and refuse what does not verify.
@Suite struct LoTETests {
  let pki: TestPKI
  let listOperator: ListOperator

  init() throws {
    pki = try TestPKI()
    listOperator = try ListOperator(pki: pki)
  }

  func signed(_ content: ETSIListContent) throws -> [UInt8] {
    try content.signedLoTE(signer: listOperator.key, certificate: listOperator.certificate)
  }

  @Test func verifiedListNamesItsEntriesAndTrustsTheirChains() throws {
    let bytes = try signed(.sample(pki: pki))
    let list = try TrustedList.verifyingLoTE(
      bytes, operatorCertificates: [listOperator.certificate])
    #expect(list.kind == .lote)
    #expect(list.operatorName == "Test Operator")
    #expect(list.sequenceNumber == 3)
    #expect(list.issued == pki.clock.addingTimeInterval(-86_400))
    #expect(list.nextUpdate == pki.clock.addingTimeInterval(86_400))
    #expect(list.signer == listOperator.certificate)
    #expect(list.digest == SHA256.hash(data: bytes))
    #expect(list.entities.map(\.name) == ["Test PID Provider"])
    #expect(list.entities.first?.serviceType == .pidProvider)
    #expect(list.entities.first?.certificates == [pki.iaca])
    let decision = TrustSources(lists: [list]).decide(
      chain: [pki.documentSigner], for: .credentialIssuer, at: pki.clock)
    #expect(
      decision.source
        == .listEntry(
          kind: .lote, operatorName: "Test Operator", issued: list.issued,
          entity: "Test PID Provider", serviceType: .pidProvider))
  }

  @Test func tamperedPayloadIsRefused() throws {
    let text = String(decoding: try signed(.sample(pki: pki)), as: UTF8.self)
    let parts = text.split(separator: ".").map(String.init)
    var payload = try Base64URL.decode(parts[1])
    let json = try JSONValue(parsing: payload)
    let renamed = String(decoding: json.serializedBytes(), as: UTF8.self)
      .replacingOccurrences(of: "Test PID Provider", with: "Evil PID Provider")
    payload = Array(renamed.utf8)
    let tampered = [parts[0], Base64URL.encode(payload), parts[2]].joined(separator: ".")
    expectTrustError(.invalidSignature) {
      _ = try TrustedList.verifyingLoTE(
        Array(tampered.utf8), operatorCertificates: [listOperator.certificate])
    }
  }

  @Test func listSignedByAnotherKeyIsRefused() throws {
    let other = try ListOperator("Other Operator", pki: pki)
    let bytes = try ETSIListContent.sample(pki: pki).signedLoTE(
      signer: other.key, certificate: other.certificate)
    expectTrustError(.untrustedSigner) {
      _ = try TrustedList.verifyingLoTE(bytes, operatorCertificates: [listOperator.certificate])
    }
    // The header names the operator's certificate, but another key signed.
    let forged = try ETSIListContent.sample(pki: pki).signedLoTE(
      signer: other.key, certificate: listOperator.certificate)
    expectTrustError(.invalidSignature) {
      _ = try TrustedList.verifyingLoTE(forged, operatorCertificates: [listOperator.certificate])
    }
  }

  @Test func operatorCertificateMustBeValidAtTheSigningTime() throws {
    let expired = try ListOperator(pki: pki, validFor: -2)
    let bytes = try ETSIListContent.sample(pki: pki).signedLoTE(
      signer: expired.key, certificate: expired.certificate)
    expectTrustError(.expired) {
      _ = try TrustedList.verifyingLoTE(bytes, operatorCertificates: [expired.certificate])
    }
  }

  @Test func staleListVerifiesButIsUsedOnlyUnderThePolicy() throws {
    let list = try TrustedList.verifyingLoTE(
      try signed(.sample(pki: pki, nextUpdate: -60)),
      operatorCertificates: [listOperator.certificate])
    #expect(list.isStale(at: pki.clock))
    let refused = TrustSources(lists: [list]).decide(
      chain: [pki.documentSigner], for: .credentialIssuer, at: pki.clock)
    #expect(
      refused
        == .untrusted([
          .listStale(
            kind: .lote, operatorName: "Test Operator",
            nextUpdate: pki.clock.addingTimeInterval(-60))
        ]))
    let accepted = TrustSources(lists: [list], staleListPolicy: .accept).decide(
      chain: [pki.documentSigner], for: .credentialIssuer, at: pki.clock)
    #expect(accepted.source != nil)
  }

  @Test func withdrawnServiceIsListedButNotGranted() throws {
    let list = try TrustedList.verifyingLoTE(
      try signed(.sample(pki: pki, status: ETSIServiceTypeURI.withdrawn)),
      operatorCertificates: [listOperator.certificate])
    #expect(list.entities.first?.isGranted == false)
    let granted = try TrustedList.verifyingLoTE(
      try signed(.sample(pki: pki, status: ETSIServiceTypeURI.granted)),
      operatorCertificates: [listOperator.certificate])
    #expect(granted.entities.first?.isGranted == true)
  }

  /// A JWS over the sample payload with a header the test chooses.
  func jws(header: JSONValue, understood: Set<String> = ["sigT"]) throws -> [UInt8] {
    let payload = ETSIListContent.sample(pki: pki).loteJSON().serializedBytes()
    return Array(
      try JWS.sign(
        payload: payload, protectedHeader: header, signer: listOperator.key,
        understoodCriticalParameters: understood
      ).utf8)
  }

  @Test func jadesHeaderIsRequired() throws {
    let x5c = JWS.x5c([listOperator.certificate.derBytes])
    let sigT: JSONValue = "2026-05-27T00:00:00Z"
    let operators = [listOperator.certificate]
    // No sigT; sigT not critical; sigT not a date; no signing certificate reference.
    for header: JSONValue in [
      ["x5c": x5c], ["x5c": x5c, "sigT": sigT],
      ["x5c": x5c, "sigT": "yesterday", "crit": ["sigT"]], ["sigT": sigT, "crit": ["sigT"]],
    ] {
      let bytes = try jws(header: header)
      expectTrustError(.malformed) {
        _ = try TrustedList.verifyingLoTE(bytes, operatorCertificates: operators)
      }
    }
    // x5t#S256 alone identifies the operator certificate; a wrong one is refused.
    let thumbprint = Base64URL.encode(SHA256.hash(data: listOperator.certificate.derBytes))
    let byThumbprint = try jws(header: [
      "x5t#S256": .string(thumbprint), "sigT": sigT, "crit": ["sigT"],
    ])
    #expect(
      try TrustedList.verifyingLoTE(byThumbprint, operatorCertificates: operators).kind == .lote)
    let mismatch = try jws(header: [
      "x5c": x5c, "x5t#S256": .string(Base64URL.encode([UInt8](repeating: 1, count: 32))),
      "sigT": sigT, "crit": ["sigT"],
    ])
    expectTrustError(.malformed) {
      _ = try TrustedList.verifyingLoTE(mismatch, operatorCertificates: operators)
    }
  }

  @Test func payloadMustBeALoTEOfVersionOne() throws {
    let operators = [listOperator.certificate]
    func sign(_ payload: JSONValue) throws -> [UInt8] {
      try ETSIListContent.signLoTE(
        payload: payload.serializedBytes(), signer: listOperator.key,
        certificate: listOperator.certificate, signingTime: pki.clock)
    }
    let good = ETSIListContent.sample(pki: pki).loteJSON()
    let info = try #require(good["LoTE"]?["ListAndSchemeInformation"])
    let version2 = good.setting(
      "LoTE",
      to: try #require(good["LoTE"]).setting(
        "ListAndSchemeInformation", to: info.setting("LoTEVersionIdentifier", to: 2)))
    expectTrustError(.unsupported) {
      _ = try TrustedList.verifyingLoTE(try sign(version2), operatorCertificates: operators)
    }
    for field in ["ListIssueDateTime", "NextUpdate", "SchemeOperatorName", "LoTESequenceNumber"] {
      let missing = good.setting(
        "LoTE",
        to: try #require(good["LoTE"]).setting(
          "ListAndSchemeInformation", to: info.removing(field)))
      expectTrustError(.malformed) {
        _ = try TrustedList.verifyingLoTE(try sign(missing), operatorCertificates: operators)
      }
    }
    expectTrustError(.malformed) {
      _ = try TrustedList.verifyingLoTE(try sign(["TSL": 1]), operatorCertificates: operators)
    }
    expectTrustError(.malformed) {
      _ = try TrustedList.verifyingLoTE(Array("not a jws".utf8), operatorCertificates: operators)
    }
    expectTrustError(.malformed) {
      _ = try TrustedList.verifyingLoTE([0xff, 0xfe], operatorCertificates: operators)
    }
  }

  @Test func serviceTypeIsImpliedByTheLoTETypeWhenAbsent() throws {
    var payload = ETSIListContent.sample(pki: pki).loteJSON()
    let lote = try #require(payload["LoTE"])
    let info = try #require(lote["ListAndSchemeInformation"]).setting(
      "LoTEType", to: "http://uri.etsi.org/19602/LoTEType/EUWalletProvidersList")
    let entity = try #require(lote["TrustedEntitiesList"]?[0])
    let service = try #require(entity["TrustedEntityServices"]?[0]?["ServiceInformation"])
    let untyped = entity.setting(
      "TrustedEntityServices",
      to: [["ServiceInformation": service.removing("ServiceTypeIdentifier")]])
    payload = payload.setting(
      "LoTE",
      to: lote.setting("ListAndSchemeInformation", to: info).setting(
        "TrustedEntitiesList", to: [untyped]))
    let bytes = try ETSIListContent.signLoTE(
      payload: payload.serializedBytes(), signer: listOperator.key,
      certificate: listOperator.certificate, signingTime: pki.clock)
    let list = try TrustedList.verifyingLoTE(
      bytes, operatorCertificates: [listOperator.certificate])
    #expect(list.entities.first?.serviceType == .walletProvider)
  }

  @Test func pointersCarryLocationTerritoryAndCertificates() throws {
    var content = ETSIListContent.sample(pki: pki)
    content.pointers = [
      .init(
        location: try #require(URL(string: "https://lists.example/ut.jwt")), territory: "UT",
        certificates: [listOperator.certificate])
    ]
    let list = try TrustedList.verifyingLoTE(
      try signed(content), operatorCertificates: [listOperator.certificate])
    #expect(list.pointers.first?.location.absoluteString == "https://lists.example/ut.jwt")
    #expect(list.pointers.first?.territory == "UT")
    #expect(list.pointers.first?.operatorCertificates == [listOperator.certificate])
  }
}
