import DCTestSupport
import DCTrust
import DCX509
import Foundation
import Testing

/// Registration certificates made by an implementation this package did not write (Python
/// `cryptography`, see Vectors/README.md), read and verified in both forms.
@Suite struct RegistrationInteropTests {
  static let time = Date(timeIntervalSince1970: 1_780_000_000)

  func sources() throws -> TrustSources {
    let registrar = try Certificate(
      derEncoded: try VectorFile.bytes("wrprc-python-registrar", ext: "der", in: .module))
    return TrustSources(anchors: [
      TrustAnchor(
        id: "python", certificate: registrar, purposes: [.registrationCertificateProvider])
    ])
  }

  @Test(arguments: ["jwt", "cwt"])
  func pythonMadeCertificateVerifies(ext: String) throws {
    let bytes = try VectorFile.bytes("wrprc-python-es256", ext: ext, in: .module)
    let certificate = try RegistrationCertificate.verifying(
      bytes, sources: try sources(), at: Self.time)
    #expect(certificate.subject == "LEIXG-529900T8BM49AURSDO55")
    #expect(certificate.name == "Example Shop")
    #expect(certificate.legalName == "Example Shop GmbH")
    #expect(certificate.purpose.first?.value == "Age verification")
    #expect(certificate.privacyPolicy == "https://shop.example/privacy")
    #expect(certificate.intermediary?.name == "Platform")
    #expect(certificate.credentials.count == 2)
    #expect(certificate.statusReference?.index == 3)
    let nationality = RegistrationRequestedClaim(
      credential: .sdJWT(vctValues: ["urn:eudi:pid:1"]),
      path: RegistrationClaimPath([.key("nationalities"), .index(1)]))
    let birthDate = RegistrationRequestedClaim(
      credential: .mdoc(docType: "eu.europa.ec.eudi.pid.1"),
      path: RegistrationClaimPath([.key("eu.europa.ec.eudi.pid.1"), .key("birth_date")]))
    #expect(certificate.compare([nationality, birthDate]).overAsked == [birthDate])
  }

  @Test(arguments: ["jwt", "cwt"])
  func pythonMadeCertificateIsRefusedWhenTampered(ext: String) throws {
    var bytes = try VectorFile.bytes("wrprc-python-es256", ext: ext, in: .module)
    // Inside the signature: a base64url character of the JWT's, a byte of the CWT's.
    let index = bytes.count - 10
    bytes[index] = bytes[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
    let sources = try sources()
    do {
      _ = try RegistrationCertificate.verifying(bytes, sources: sources, at: Self.time)
      Issue.record("a tampered certificate verified")
    } catch {
      #expect(error.code == .invalidSignature)
    }
  }
}
