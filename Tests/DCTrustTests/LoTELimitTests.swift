import DCCrypto
import DCJSON
import DCTrust
import DCX509
import DCX509TestSupport
import Foundation
import Testing

/// The LoTE limits of docs/LIMITS.md ("Trusted lists"), each at and one past the limit.
@Suite struct LoTELimitTests {
  let pki: TestPKI
  let listOperator: ListOperator

  init() throws {
    pki = try TestPKI()
    listOperator = try ListOperator(pki: pki)
  }

  func verify(_ payload: JSONValue) throws -> TrustedList {
    let bytes = try ETSIListContent.signLoTE(
      payload: payload.serializedBytes(), signer: listOperator.key,
      certificate: listOperator.certificate, signingTime: pki.clock)
    return try TrustedList.verifyingLoTE(bytes, operatorCertificates: [listOperator.certificate])
  }

  func entries(_ count: Int, certificates: [Certificate] = []) -> [ETSIListContent.Entry] {
    (0..<count).map {
      .init(
        name: "Entity \($0)", serviceTypeURI: ETSIServiceTypeURI.pidIssuance,
        certificates: certificates)
    }
  }

  @Test func listBytes() throws {
    let signed = try ETSIListContent.sample(pki: pki).signedLoTE(
      signer: listOperator.key, certificate: listOperator.certificate)
    // Trailing white space is trimmed, so the padded list is the same list.
    let padding = ETSIListLimits.maxListBytes - signed.count
    let atLimit = signed + [UInt8](repeating: UInt8(ascii: " "), count: padding)
    #expect(
      try TrustedList.verifyingLoTE(atLimit, operatorCertificates: [listOperator.certificate])
        .entities.count == 1)
    expectTrustError(.tooLarge) {
      _ = try TrustedList.verifyingLoTE(
        atLimit + [UInt8(ascii: " ")], operatorCertificates: [listOperator.certificate])
    }
  }

  @Test func entityCount() throws {
    let at = ETSIListContent.sample(pki: pki, entries: entries(ETSIListLimits.maxEntities))
    #expect(try verify(at.loteJSON()).entities.isEmpty)
    let past = ETSIListContent.sample(pki: pki, entries: entries(ETSIListLimits.maxEntities + 1))
    expectTrustError(.tooLarge) { _ = try verify(past.loteJSON()) }
  }

  @Test func certificatesPerIdentity() throws {
    let limit = ETSIListLimits.maxCertificatesPerIdentity
    let at = ETSIListContent.sample(
      pki: pki, entries: entries(1, certificates: Array(repeating: pki.iaca, count: limit)))
    #expect(try verify(at.loteJSON()).entities.first?.certificates.count == limit)
    let past = ETSIListContent.sample(
      pki: pki, entries: entries(1, certificates: Array(repeating: pki.iaca, count: limit + 1)))
    expectTrustError(.tooLarge) { _ = try verify(past.loteJSON()) }
  }

  @Test func servicesPerEntity() throws {
    func payload(services count: Int) throws -> JSONValue {
      let json = ETSIListContent.sample(pki: pki).loteJSON()
      let lote = try #require(json["LoTE"])
      let entity = try #require(lote["TrustedEntitiesList"]?[0])
      let service = try #require(entity["TrustedEntityServices"]?[0])
      let many = entity.setting(
        "TrustedEntityServices", to: .array(Array(repeating: service, count: count)))
      return json.setting("LoTE", to: lote.setting("TrustedEntitiesList", to: [many]))
    }
    let limit = ETSIListLimits.maxServicesPerEntity
    #expect(try verify(try payload(services: limit)).entities.count == limit)
    expectTrustError(.tooLarge) { _ = try verify(try payload(services: limit + 1)) }
  }

  @Test func pointers() throws {
    func content(_ count: Int) throws -> ETSIListContent {
      var content = ETSIListContent.sample(pki: pki)
      let pointer = ETSIListContent.Pointer(
        location: try #require(URL(string: "https://lists.example/x")), territory: "UT",
        certificates: [])
      content.pointers = Array(repeating: pointer, count: count)
      return content
    }
    let limit = ETSIListLimits.maxPointers
    #expect(try verify(try content(limit).loteJSON()).pointers.count == limit)
    expectTrustError(.tooLarge) { _ = try verify(try content(limit + 1).loteJSON()) }
  }

  @Test func jsonDepth() throws {
    // The root object is depth 1, LoTE 2, ListAndSchemeInformation 3: an extension member of
    // `n` nested arrays reaches depth 3 + n.
    func payload(arrays: Int) throws -> JSONValue {
      let json = ETSIListContent.sample(pki: pki).loteJSON()
      let lote = try #require(json["LoTE"])
      var nested: JSONValue = []
      for _ in 1..<arrays { nested = [nested] }
      let info = try #require(lote["ListAndSchemeInformation"]).setting(
        "SchemeExtensions", to: nested)
      return json.setting("LoTE", to: lote.setting("ListAndSchemeInformation", to: info))
    }
    let limit = ETSIListLimits.maxJSONDepth
    #expect(try verify(try payload(arrays: limit - 3)).kind == .lote)
    expectTrustError(.malformed) { _ = try verify(try payload(arrays: limit - 2)) }
  }
}
