import DCCrypto
import DCTrust
import DCX509
import DCX509TestSupport
import Foundation
import Testing

/// ETSI TS 119 475 v1.2.1 registration certificates: both forms read and verified, the chain to
/// a registration-certificate provider, validity, binding to the requester.
@Suite struct RegistrationCertificateTests {
  let fixture: RegistrationFixture

  init() throws { fixture = try RegistrationFixture() }

  func verify(_ bytes: [UInt8], sources: TrustSources? = nil) throws(TrustError)
    -> RegistrationCertificate
  {
    try RegistrationCertificate.verifying(
      bytes, sources: sources ?? fixture.sources, at: fixture.clock)
  }

  func expectCode(
    _ code: TrustErrorCode, _ bytes: [UInt8], sources: TrustSources? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      _ = try verify(bytes, sources: sources)
      Issue.record("expected \(code)", sourceLocation: sourceLocation)
    } catch {
      #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    }
  }

  @Test(arguments: RegistrationFixture.Form.allCases)
  func readsEveryClaimOfEitherForm(form: RegistrationFixture.Form) throws {
    var builder = fixture.builder()
    builder.status = (index: 7, uri: "https://registrar.example/status/1")
    let certificate = try verify(try fixture.sign(builder, form))
    #expect(certificate.form == (form == .jwt ? .jwt : .cwt))
    #expect(certificate.subject == RegistrationFixture.relyingParty)
    #expect(certificate.name == "Example Shop")
    #expect(certificate.legalName == "Example Shop GmbH")
    #expect(certificate.purpose.first?.value == "Age verification at checkout")
    #expect(certificate.privacyPolicy == "https://shop.example/privacy")
    #expect(certificate.credentials.count == 2)
    #expect(
      certificate.credentials[1].claims?[1].components == [.key("nationalities"), .allElements])
    #expect(certificate.statusReference?.index == 7)
    #expect(certificate.signingChain == [fixture.provider])
    #expect(
      certificate.decision.source
        == .anchor(id: "registrar", subject: fixture.providerRoot.subject.description))
  }

  @Test func listEntryOfTheProviderServiceTypeTrustsTheSigner() throws {
    let list = TrustedList(
      kind: .lote, operatorName: "Test Operator", sequenceNumber: 1,
      issued: fixture.clock.addingTimeInterval(-86_400),
      nextUpdate: fixture.clock.addingTimeInterval(86_400),
      entities: [
        TrustedEntity(
          name: "Test Registrar", serviceType: .registrationCertificateProvider,
          certificates: [fixture.providerRoot], isGranted: true)
      ], signer: fixture.pki.readerRoot, digest: [])
    let certificate = try verify(
      try fixture.sign(fixture.builder(), .jwt), sources: TrustSources(lists: [list]))
    guard case .listEntry(_, _, _, let entity, let serviceType) = certificate.decision.source else {
      Issue.record("expected a list entry, got \(certificate.decision)")
      return
    }
    #expect(entity == "Test Registrar")
    #expect(serviceType == .registrationCertificateProvider)
  }

  @Test(arguments: RegistrationFixture.Form.allCases)
  func signerOutsideTheProvidersIsRefused(form: RegistrationFixture.Form) throws {
    let bytes = try fixture.sign(fixture.builder(), form)
    expectCode(.untrustedSigner, bytes, sources: TrustSources())
    // The provider root anchored for reader authentication does not sign registrations.
    let readerOnly = TrustSources(anchors: [
      TrustAnchor(id: "r", certificate: fixture.providerRoot, purposes: [.reader, .verifier])
    ])
    expectCode(.untrustedSigner, bytes, sources: readerOnly)
  }

  @Test(arguments: RegistrationFixture.Form.allCases)
  func signatureByAnotherKeyIsRefused(form: RegistrationFixture.Form) throws {
    let other = try ECPrivateKey(curve: .p256)
    expectCode(.invalidSignature, try fixture.sign(fixture.builder(), form, key: other))
  }

  @Test func tamperedJWTIsRefused() throws {
    let original = String(decoding: try fixture.sign(fixture.builder(), .jwt), as: UTF8.self)
    var widened = fixture.builder()
    widened.credentials.append(
      RegisteredCredential(format: "mso_mdoc", docType: "any", claims: nil))
    let forged = String(decoding: try fixture.sign(widened, .jwt), as: UTF8.self)
    let parts = original.split(separator: ".")
    let forgedParts = forged.split(separator: ".")
    let spliced = "\(parts[0]).\(forgedParts[1]).\(parts[2])"
    expectCode(.invalidSignature, Array(spliced.utf8))
  }

  @Test func tamperedCWTIsRefused() throws {
    var bytes = try fixture.sign(fixture.builder(), .cwt)
    // The last byte is the signature's; flipping it keeps the structure.
    bytes[bytes.count - 1] ^= 0x01
    expectCode(.invalidSignature, bytes)
  }

  @Test func typeOtherThanTheRegistrationCertificateIsRefused() throws {
    var jwt = fixture.builder()
    jwt.jwtType = "JWT"
    expectCode(.unsupported, try fixture.sign(jwt, .jwt))
    var cwt = fixture.builder()
    cwt.cwtType = "application/cwt"
    expectCode(.unsupported, try fixture.sign(cwt, .cwt))
  }

  @Test(arguments: RegistrationFixture.Form.allCases)
  func validityIsChecked(form: RegistrationFixture.Form) throws {
    var expired = fixture.builder()
    expired.issuedAt = fixture.clock.addingTimeInterval(-86_400 * 10)
    expired.expiresAt = fixture.clock.addingTimeInterval(-60)
    expectCode(.expired, try fixture.sign(expired, form))
    var future = fixture.builder()
    future.issuedAt = fixture.clock.addingTimeInterval(3_600)
    expectCode(.expired, try fixture.sign(future, form))
    var tooLong = fixture.builder()
    tooLong.expiresAt = tooLong.issuedAt.addingTimeInterval(86_400 * 400)
    expectCode(.malformed, try fixture.sign(tooLong, form))
  }

  @Test func missingMandatoryClaimsAreMalformed() throws {
    var noEntitlements = fixture.builder()
    noEntitlements.entitlements = []
    expectCode(.malformed, try fixture.sign(noEntitlements, .jwt))
    expectCode(.malformed, try fixture.sign(noEntitlements, .cwt))
  }

  @Test func notAToken() {
    expectCode(.malformed, Array("a.b.c".utf8))
    expectCode(.malformed, [0x84, 0x40, 0xA0, 0xF6])
    expectCode(.malformed, [])
  }

  @Test func bindsToTheAccessCertificateOfTheRegisteredRelyingParty() throws {
    let certificate = try verify(try fixture.sign(fixture.builder(), .jwt))
    #expect(
      certificate.binding(to: fixture.access) == .bound(subject: RegistrationFixture.relyingParty))
    #expect(
      certificate.binding(to: fixture.otherAccess)
        == .mismatch(
          registered: RegistrationFixture.relyingParty,
          presented: RegistrationFixture.otherRelyingParty))
    #expect(certificate.binding(to: nil) == .noAccessCertificate)
    #expect(!certificate.binding(to: fixture.pki.reader).isBound)
  }

  @Test func intermediaryIsBoundThroughItsOwnAccessCertificate() throws {
    var builder = fixture.builder(subject: "LEIXG-CLIENT0000000000000")
    builder.intermediary = (subject: RegistrationFixture.relyingParty, name: "Example Platform")
    let certificate = try verify(try fixture.sign(builder, .cwt))
    #expect(certificate.intermediary?.name == "Example Platform")
    #expect(
      certificate.binding(to: fixture.access)
        == .boundThroughIntermediary(
          intermediary: RegistrationFixture.relyingParty,
          relyingParty: "LEIXG-CLIENT0000000000000"))
    #expect(!certificate.binding(to: fixture.otherAccess).isBound)
  }
}

/// A registration certificate whose signer the provider has revoked (RFC 5280 CRL).
@Suite struct RegistrationRevocationTests {
  @Test(arguments: RegistrationFixture.Form.allCases)
  func revokedSignerIsRefused(form: RegistrationFixture.Form) throws {
    let fixture = try RegistrationFixture()
    let bytes = try fixture.sign(fixture.builder(), form)
    func crl(revoking serials: [[UInt8]]) throws -> RevocationCheck {
      RevocationCheck(
        crls: [
          try CertificateRevocationList.build(
            issuer: fixture.providerRoot, signer: fixture.providerRootKey,
            thisUpdate: fixture.clock.addingTimeInterval(-3_600),
            nextUpdate: fixture.clock.addingTimeInterval(86_400),
            revoked: serials.map {
              RevokedCertificate(
                serialNumber: $0, revocationDate: fixture.clock.addingTimeInterval(-60),
                reasonCode: nil)
            })
        ], policy: .failClosed)
    }
    // The same CRL without the signer's serial lets it through.
    _ = try RegistrationCertificate.verifying(
      bytes, sources: fixture.sources, at: fixture.clock, revocation: try crl(revoking: []))
    let revoked = try crl(revoking: [fixture.provider.serialNumber])
    do {
      _ = try RegistrationCertificate.verifying(
        bytes, sources: fixture.sources, at: fixture.clock, revocation: revoked)
      Issue.record("a revoked signer verified")
    } catch {
      #expect(error.code == .untrustedSigner)
      #expect(error.reason.contains("revoked"), "\(error.reason)")
    }
  }
}
