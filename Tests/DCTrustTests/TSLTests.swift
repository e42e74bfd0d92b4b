import DCCrypto
import DCTrust
import DCX509
import DCX509TestSupport
import Foundation
import Testing

/// ETSI TS 119 612 trusted lists and the EU LOTL, signed with enveloped XAdES by xmlsec1.
@Suite struct TSLTests {
  let pki: TestPKI
  let listOperator: ListOperator

  init() throws {
    pki = try TestPKI()
    listOperator = try ListOperator(pki: pki)
  }

  func signed(_ content: ETSIListContent, kind: TrustedListKind = .tsl) throws -> [UInt8] {
    try content.signedTSL(kind: kind, key: listOperator.key, certificate: listOperator.certificate)
  }

  func verify(_ bytes: [UInt8]) throws -> TrustedList {
    try TrustedList.verifyingTSL(bytes, operatorCertificates: [listOperator.certificate])
  }

  @Test func verifiedListNamesItsServicesAndTrustsTheirChains() throws {
    let bytes = try signed(
      .sample(
        pki: pki,
        entries: [
          .init(
            name: "Test EAA Provider", serviceTypeURI: "http://uri.etsi.org/TrstSvc/Svctype/EAA/Q",
            certificates: [pki.iaca])
        ]))
    let list = try verify(bytes)
    #expect(list.kind == .tsl)
    #expect(list.operatorName == "Test Operator")
    #expect(list.sequenceNumber == 3)
    #expect(list.issued == pki.clock.addingTimeInterval(-86_400))
    #expect(list.nextUpdate == pki.clock.addingTimeInterval(86_400))
    #expect(list.signer == listOperator.certificate)
    #expect(list.digest == SHA256.hash(data: bytes))
    #expect(list.entities.first?.serviceType == .attestationProvider)
    #expect(list.entities.first?.isGranted == true)
    let decision = TrustSources(lists: [list]).decide(
      chain: [pki.documentSigner], for: .credentialIssuer, at: pki.clock)
    #expect(
      decision.source
        == .listEntry(
          kind: .tsl, operatorName: "Test Operator", issued: list.issued,
          entity: "Test EAA Provider", serviceType: .attestationProvider))
  }

  @Test func tamperedListIsRefused() throws {
    let text = String(decoding: try signed(.sample(pki: pki)), as: UTF8.self)
    let tampered = text.replacingOccurrences(of: "Test PID Provider", with: "Evil PID Provider")
    #expect(tampered != text)
    expectTrustError(.invalidSignature) { _ = try verify(Array(tampered.utf8)) }
    // A changed signed property (the signing time) is refused too.
    let retimed = text.replacingOccurrences(
      of: "<xades:SigningTime>2026", with: "<xades:SigningTime>2027")
    #expect(retimed != text)
    expectTrustError(.invalidSignature) { _ = try verify(Array(retimed.utf8)) }
  }

  @Test func listSignedByAnotherKeyIsRefused() throws {
    let other = try ListOperator("Other Operator", pki: pki)
    let bytes = try ETSIListContent.sample(pki: pki).signedTSL(
      kind: .tsl, key: other.key, certificate: other.certificate)
    expectTrustError(.untrustedSigner) { _ = try verify(bytes) }
    // KeyInfo names the operator's certificate, but another key signed.
    let forged = try ETSIListContent.sample(pki: pki).signedTSL(
      kind: .tsl, key: other.key, certificate: listOperator.certificate)
    expectTrustError(.invalidSignature) { _ = try verify(forged) }
  }

  @Test func operatorCertificateMustBeValidAtTheIssueDate() throws {
    let expired = try ListOperator(pki: pki, validFor: -2)
    let bytes = try ETSIListContent.sample(pki: pki).signedTSL(
      kind: .tsl, key: expired.key, certificate: expired.certificate)
    expectTrustError(.expired) {
      _ = try TrustedList.verifyingTSL(bytes, operatorCertificates: [expired.certificate])
    }
  }

  @Test func staleListVerifiesButIsUsedOnlyUnderThePolicy() throws {
    let list = try verify(try signed(.sample(pki: pki, nextUpdate: -60)))
    let refused = TrustSources(lists: [list]).decide(
      chain: [pki.documentSigner], for: .credentialIssuer, at: pki.clock)
    #expect(
      refused
        == .untrusted([
          .listStale(
            kind: .tsl, operatorName: "Test Operator",
            nextUpdate: pki.clock.addingTimeInterval(-60))
        ]))
    let accepted = TrustSources(lists: [list], staleListPolicy: .accept).decide(
      chain: [pki.documentSigner], for: .credentialIssuer, at: pki.clock)
    #expect(accepted.source != nil)
  }

  @Test func withdrawnServiceIsNotGranted() throws {
    let list = try verify(try signed(.sample(pki: pki, status: ETSIServiceTypeURI.withdrawn)))
    #expect(list.entities.first?.isGranted == false)
  }

  @Test func lotlPointsToTheMemberStatesLists() throws {
    var content = ETSIListContent.sample(pki: pki, entries: [])
    content.pointers = [
      .init(
        location: try #require(URL(string: "https://lists.example/ut.xml")), territory: "UT",
        certificates: [listOperator.certificate])
    ]
    let bytes = try signed(content, kind: .lotl)
    let lotl = try TrustedList.verifyingLOTL(
      bytes, operatorCertificates: [listOperator.certificate])
    #expect(lotl.kind == .lotl)
    #expect(lotl.pointers.count == 1)
    #expect(lotl.pointers.first?.location.absoluteString == "https://lists.example/ut.xml")
    #expect(lotl.pointers.first?.kind == .tsl)
    #expect(lotl.pointers.first?.territory == "UT")
    #expect(lotl.pointers.first?.operatorCertificates == [listOperator.certificate])
    // Each entry point reads only its own kind.
    expectTrustError(.malformed) { _ = try verify(bytes) }
    expectTrustError(.malformed) {
      _ = try TrustedList.verifyingLOTL(
        try signed(.sample(pki: pki)), operatorCertificates: [listOperator.certificate])
    }
  }

  @Test func hostileDocumentsAreRefused() throws {
    let text = String(decoding: try signed(.sample(pki: pki)), as: UTF8.self)
    // A DTD (entity expansion, ID declarations) is refused before anything else.
    let dtd = text.replacingOccurrences(
      of: "<tsl:TrustServiceStatusList ",
      with:
        "<!DOCTYPE tsl:TrustServiceStatusList [<!ENTITY a \"aaaa\">]><tsl:TrustServiceStatusList ")
    #expect(dtd != text)
    expectTrustError(.malformed) { _ = try verify(Array(dtd.utf8)) }
    expectTrustError(.malformed) { _ = try verify(Array("<a>".utf8)) }
    expectTrustError(.malformed) { _ = try verify(Array("not xml".utf8)) }
    // No signature at all.
    let start = try #require(text.range(of: "<ds:Signature"))
    let end = try #require(text.range(of: "</ds:Signature>"))
    let unsigned = String(text[..<start.lowerBound]) + String(text[end.upperBound...])
    expectTrustError(.malformed) { _ = try verify(Array(unsigned.utf8)) }
    // A second signature.
    let signature = String(text[start.lowerBound..<end.upperBound])
    let twice = text.replacingOccurrences(
      of: "</tsl:TrustServiceStatusList>", with: signature + "</tsl:TrustServiceStatusList>")
    expectTrustError(.malformed) { _ = try verify(Array(twice.utf8)) }
  }

  @Test func signatureMustCoverTheWholeListAndTheSignedProperties() throws {
    let content = ETSIListContent.sample(pki: pki)
    let template = content.tslTemplate(
      kind: .tsl, curve: .p256, certificate: listOperator.certificate)
    // Only the signed properties are referenced: the list itself could change freely.
    let first = try #require(template.range(of: "<ds:Reference Id=\"ref-list\""))
    let firstEnd = try #require(
      template.range(of: "</ds:Reference>", range: first.upperBound..<template.endIndex))
    let propertiesOnly = template.replacingCharacters(
      in: first.lowerBound..<firstEnd.upperBound, with: "")
    expectTrustError(.malformed) {
      _ = try verify(
        try ETSIListContent.signTemplate(
          Array(propertiesOnly.utf8), key: listOperator.key, certificate: listOperator.certificate))
    }
    // An XPath transform is outside the allowed set.
    let xpath = template.replacingOccurrences(
      of: "<ds:Transform Algorithm=\"http://www.w3.org/2000/09/xmldsig#enveloped-signature\"/>",
      with:
        "<ds:Transform Algorithm=\"http://www.w3.org/TR/1999/REC-xpath-19991116\"><ds:XPath>1</ds:XPath></ds:Transform>"
    )
    #expect(xpath != template)
    let signedXPath = try ETSIListContent.signTemplate(
      Array(xpath.utf8), key: listOperator.key, certificate: listOperator.certificate)
    expectTrustError(.unsupported) { _ = try verify(signedXPath) }
  }

  /// Signs the builder's template after `edit`, and verifies the result.
  func verifyEdited(_ edit: (String) -> String) throws -> TrustedList {
    let template = ETSIListContent.sample(pki: pki).tslTemplate(
      kind: .tsl, curve: .p256, certificate: listOperator.certificate)
    let edited = edit(template)
    #expect(edited != template)
    return try verify(
      try ETSIListContent.signTemplate(
        Array(edited.utf8), key: listOperator.key, certificate: listOperator.certificate))
  }

  @Test func signedPropertiesMustBeReferenced() throws {
    expectTrustError(.malformed) {
      _ = try verifyEdited { template in
        guard let start = template.range(of: "<ds:Reference Type="),
          let end = template.range(
            of: "</ds:Reference>", range: start.upperBound..<template.endIndex)
        else { return template }
        return template.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "")
      }
    }
  }

  @Test func sha1DigestsAreRefused() throws {
    expectTrustError(.unsupported) {
      _ = try verifyEdited {
        $0.replacingOccurrences(
          of: "http://www.w3.org/2001/04/xmlenc#sha256",
          with: "http://www.w3.org/2000/09/xmldsig#sha1")
      }
    }
  }

  @Test func otherFormatVersionsAndRootsAreRefused() throws {
    expectTrustError(.unsupported) {
      _ = try verifyEdited {
        $0.replacingOccurrences(
          of: "<tsl:TSLVersionIdentifier>6<", with: "<tsl:TSLVersionIdentifier>7<")
      }
    }
    expectTrustError(.malformed) { _ = try verify(Array("<a xmlns=\"urn:x\"/>".utf8)) }
  }
}
