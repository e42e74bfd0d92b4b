import DCCrypto
import DCTrust
import DCX509
import DCX509TestSupport
import Foundation
import Testing

/// The TS 119 612 limits of docs/LIMITS.md ("Trusted lists"), each at and one past the limit.
@Suite struct TSLLimitTests {
  let pki: TestPKI
  let listOperator: ListOperator

  init() throws {
    pki = try TestPKI()
    listOperator = try ListOperator(pki: pki)
  }

  func verify(_ content: ETSIListContent, kind: TrustedListKind = .tsl) throws -> TrustedList {
    let bytes = try content.signedTSL(
      kind: kind, key: listOperator.key, certificate: listOperator.certificate)
    return kind == .lotl
      ? try TrustedList.verifyingLOTL(bytes, operatorCertificates: [listOperator.certificate])
      : try TrustedList.verifyingTSL(bytes, operatorCertificates: [listOperator.certificate])
  }

  func entries(_ count: Int, certificates: [Certificate] = []) -> [ETSIListContent.Entry] {
    (0..<count).map {
      .init(
        name: "Provider \($0)", serviceTypeURI: ETSIServiceTypeURI.pidIssuance,
        certificates: certificates)
    }
  }

  @Test func listBytes() throws {
    let signed = try ETSIListContent.sample(pki: pki).signedTSL(
      kind: .tsl, key: listOperator.key, certificate: listOperator.certificate)
    // White space after the root element is outside the signed canonical form.
    let padding = ETSIListLimits.maxListBytes - signed.count
    let atLimit = signed + [UInt8](repeating: UInt8(ascii: " "), count: padding)
    #expect(
      try TrustedList.verifyingTSL(atLimit, operatorCertificates: [listOperator.certificate])
        .entities.count == 1)
    expectTrustError(.tooLarge) {
      _ = try TrustedList.verifyingTSL(
        atLimit + [UInt8(ascii: " ")], operatorCertificates: [listOperator.certificate])
    }
  }

  @Test func providerCount() throws {
    let limit = ETSIListLimits.maxEntities
    #expect(try verify(.sample(pki: pki, entries: entries(limit))).entities.isEmpty)
    expectTrustError(.tooLarge) { _ = try verify(.sample(pki: pki, entries: entries(limit + 1))) }
  }

  @Test func certificatesPerIdentity() throws {
    let limit = ETSIListLimits.maxCertificatesPerIdentity
    let at = entries(1, certificates: Array(repeating: pki.iaca, count: limit))
    #expect(try verify(.sample(pki: pki, entries: at)).entities.first?.certificates.count == limit)
    let past = entries(1, certificates: Array(repeating: pki.iaca, count: limit + 1))
    expectTrustError(.tooLarge) { _ = try verify(.sample(pki: pki, entries: past)) }
  }

  @Test func pointers() throws {
    func content(_ count: Int) throws -> ETSIListContent {
      var content = ETSIListContent.sample(pki: pki, entries: [])
      let pointer = ETSIListContent.Pointer(
        location: try #require(URL(string: "https://lists.example/x.xml")), territory: "UT",
        certificates: [])
      content.pointers = Array(repeating: pointer, count: count)
      return content
    }
    let limit = ETSIListLimits.maxPointers
    #expect(try verify(try content(limit), kind: .lotl).pointers.count == limit)
    expectTrustError(.tooLarge) { _ = try verify(try content(limit + 1), kind: .lotl) }
  }
}
