import DCTrust
import Foundation
import Testing

/// The request compared with the registration (ETSI TS 119 475 v1.2.1 Table 9 `credentials`):
/// within, equal to and beyond it, for mdoc and SD-JWT VC.
@Suite struct RegistrationComparisonTests {
  let certificate: RegistrationCertificate
  static let pid = RegistrationFixture.pid

  init() throws {
    let fixture = try RegistrationFixture()
    certificate = try RegistrationCertificate.verifying(
      try fixture.sign(fixture.builder(), .jwt), sources: fixture.sources, at: fixture.clock)
  }

  static func mdoc(_ element: String, docType: String = pid) -> RegistrationRequestedClaim {
    RegistrationRequestedClaim(
      credential: .mdoc(docType: docType),
      path: RegistrationClaimPath([.key(docType), .key(element)]))
  }

  static func sdJWT(
    _ path: [RegistrationClaimPath.Component], vct: [String] = [RegistrationFixture.pidVCT]
  )
    -> RegistrationRequestedClaim
  {
    RegistrationRequestedClaim(
      credential: .sdJWT(vctValues: vct), path: RegistrationClaimPath(path))
  }

  @Test func mdocWithinEqualAndBeyond() {
    let within = certificate.compare([Self.mdoc("family_name")])
    #expect(within.isWithinRegistration)
    let equal = certificate.compare([Self.mdoc("family_name"), Self.mdoc("given_name")])
    #expect(equal.isWithinRegistration)
    #expect(equal.findings.count == 2)
    let beyond = certificate.compare([Self.mdoc("family_name"), Self.mdoc("birth_date")])
    #expect(!beyond.isWithinRegistration)
    #expect(beyond.overAsked == [Self.mdoc("birth_date")])
    #expect(beyond.findings[1] == .overAsked(Self.mdoc("birth_date"), .claimNotRegistered))
  }

  @Test func mdocOfAnUnregisteredDocumentTypeIsOverAsking() {
    let claim = Self.mdoc("family_name", docType: "org.iso.18013.5.1.mDL")
    #expect(certificate.compare([claim]).findings == [.overAsked(claim, .credentialNotRegistered)])
  }

  @Test func sdJWTWithinEqualAndBeyond() {
    #expect(certificate.compare([Self.sdJWT([.key("family_name")])]).isWithinRegistration)
    let equal = certificate.compare([
      Self.sdJWT([.key("family_name")]), Self.sdJWT([.key("nationalities"), .allElements]),
    ])
    #expect(equal.isWithinRegistration)
    // A registered null covers one index; a registered path covers what is below it.
    #expect(
      certificate.compare([Self.sdJWT([.key("nationalities"), .index(0)])]).isWithinRegistration)
    let beyond = certificate.compare([
      Self.sdJWT([.key("family_name")]), Self.sdJWT([.key("address"), .key("street_address")]),
    ])
    #expect(beyond.overAsked == [Self.sdJWT([.key("address"), .key("street_address")])])
  }

  @Test func sdJWTOfAnotherTypeOrTheWholeCredentialIsOverAsking() {
    let otherType = Self.sdJWT([.key("family_name")], vct: ["urn:other"])
    #expect(
      certificate.compare([otherType]).findings == [.overAsked(otherType, .credentialNotRegistered)]
    )
    // A request that accepts the registered type or another is not within the registration.
    let either = Self.sdJWT([.key("family_name")], vct: [RegistrationFixture.pidVCT, "urn:other"])
    #expect(!certificate.compare([either]).isWithinRegistration)
    let whole = Self.sdJWT([])
    #expect(certificate.compare([whole]).findings == [.overAsked(whole, .claimNotRegistered)])
  }

  @Test func credentialRegisteredWithoutClaimsCoversAllItsClaims() throws {
    let fixture = try RegistrationFixture()
    var builder = fixture.builder()
    builder.credentials = [RegisteredCredential(format: "mso_mdoc", docType: Self.pid, claims: nil)]
    let whole = try RegistrationCertificate.verifying(
      try fixture.sign(builder, .cwt), sources: fixture.sources, at: fixture.clock)
    #expect(whole.compare([Self.mdoc("birth_date"), Self.mdoc("portrait")]).isWithinRegistration)
  }

  @Test func registrationWithoutCredentialsMakesEveryClaimOverAsking() throws {
    let fixture = try RegistrationFixture()
    var builder = fixture.builder()
    builder.credentials = []
    let none = try RegistrationCertificate.verifying(
      try fixture.sign(builder, .jwt), sources: fixture.sources, at: fixture.clock)
    #expect(none.compare([Self.mdoc("family_name")]).overAsked.count == 1)
    #expect(none.compare([]).isWithinRegistration)
  }
}
