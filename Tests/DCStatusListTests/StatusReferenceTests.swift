import DCCBOR
import DCCOSE
import DCCrypto
import DCJSON
import DCMdoc
import DCStatusList
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// Referenced tokens: the SD-JWT VC `status` claim and the mdoc MSO `status`.
@Suite struct StatusReferenceTests {
  @Test func sdJWTStatusClaim() throws {
    let reference = StatusReference(index: 42, uri: "https://issuer.example/statuslists/1")
    let payload: JSONValue = [
      "vct": "urn:eu.europa.ec.eudi:pid:1", "status": reference.sdJWTStatusClaim,
    ]
    #expect(try ReferencedStatus.sdJWT(payload: payload) == .statusList(reference))
    #expect(try ReferencedStatus.sdJWT(payload: ["vct": "x"]) == nil)
    #expect(
      try ReferencedStatus.sdJWT(payload: ["status": ["other_mechanism": [:]]])
        == .unsupported(mechanism: "other_mechanism"))
  }

  @Test func malformedSDJWTStatusClaims() {
    let cases: [JSONValue] = [
      ["status": "revoked"],
      ["status": ["status_list": "x"]],
      ["status": ["status_list": ["idx": -1, "uri": "https://a.example"]]],
      ["status": ["status_list": ["idx": 1.5, "uri": "https://a.example"]]],
      ["status": ["status_list": ["idx": "1", "uri": "https://a.example"]]],
      ["status": ["status_list": ["idx": 1]]],
      ["status": ["status_list": ["idx": 1, "uri": 7]]],
    ]
    for payload in cases {
      let error = #expect(throws: StatusListError.self, "\(payload)") {
        try ReferencedStatus.sdJWT(payload: payload)
      }
      #expect(error?.code == .malformed)
    }
  }

  @Test func mdocStatusInTheMSORoundTrips() throws {
    let pki = try TestPKI()
    let reference = StatusReference(
      index: 7, uri: "https://issuer.example/statuslists/mdoc",
      certificate: pki.documentSigner.derBytes)
    let deviceKey = try ECPrivateKey(curve: .p256)
    let mso = MobileSecurityObject(
      digestAlgorithm: .sha256, valueDigests: [],
      deviceKey: COSEKey(publicKey: deviceKey.publicKey), docType: "org.iso.18013.5.1.mDL",
      validityInfo: ValidityInfo(
        signed: pki.clock, validFrom: pki.clock, validUntil: pki.clock.addingTimeInterval(86_400)),
      status: reference.msoStatus)
    let read = try MobileSecurityObject(encoded: EncodedCBOR(bytes: mso.encoded.bytes))
    #expect(read.encoded.bytes == mso.encoded.bytes)
    #expect(try ReferencedStatus.mdoc(status: try #require(read.status)) == .statusList(reference))
  }

  @Test func anIdentifierListIsUnsupportedNotAFailure() throws {
    let status: CBOR = [
      "identifier_list": ["id": .byteString([1, 2]), "uri": "https://a.example"]
    ]
    #expect(try ReferencedStatus.mdoc(status: status) == .unsupported(mechanism: "identifier_list"))
  }

  @Test func malformedMdocStatus() {
    let cases: [CBOR] = [
      "revoked",
      ["status_list": "x"],
      ["status_list": ["idx": -1, "uri": "https://a.example"]],
      ["status_list": ["idx": 1]],
      ["status_list": ["idx": 1, "uri": .byteString([1])]],
      ["status_list": ["idx": 1, "uri": "https://a.example", "certificate": "PEM?"]],
    ]
    for status in cases {
      let error = #expect(throws: StatusListError.self, "\(status)") {
        try ReferencedStatus.mdoc(status: status)
      }
      #expect(error?.code == .malformed)
    }
  }
}
