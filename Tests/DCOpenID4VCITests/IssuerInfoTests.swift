import DCJSON
import DCOpenID4VCI
import Foundation
import Testing

/// `issuer_info` (ETSI TS 119 472-3 §4.2.3): the issuer's registration certificate in its
/// metadata, read and written.
@Suite struct IssuerInfoTests {
  static let jwt = "eyJ0eXAiOiJyYy13cnArand0In0.eyJzdWIiOiJ4In0.c2ln"

  @Test func registrationCertificatesAreReadAndWritten() throws {
    let cwt: [UInt8] = [0xD2, 0x84, 0x40, 0xA0, 0xF6, 0x40]
    let value = setting(
      minimalIssuerMetadata(), ["issuer_info"],
      [
        ["format": "registrar_dataset", "data": ["name": "x"]],
        ["format": "registration_cert", "data": .string(Self.jwt)],
        ["format": "registration_cert", "data": "0oRAoPZA"],
      ])
    let metadata = try CredentialIssuerMetadata(json: value)
    #expect(metadata.registrationCertificates == [Array(Self.jwt.utf8), cwt])
    let written = try CredentialIssuerMetadata(json: metadata.json)
    #expect(written.registrationCertificates == metadata.registrationCertificates)
    #expect(
      try CredentialIssuerMetadata(json: minimalIssuerMetadata()).registrationCertificates.isEmpty)
  }

  @Test func malformedIssuerInfoIsRefused() {
    for bad: JSONValue in [
      "registration_cert", [["format": "registration_cert"]],
      .array(Array(repeating: ["format": "x", "data": "y"], count: 17)),
    ] {
      #expect(throws: (any Error).self) {
        try CredentialIssuerMetadata(json: setting(minimalIssuerMetadata(), ["issuer_info"], bad))
      }
    }
  }
}
