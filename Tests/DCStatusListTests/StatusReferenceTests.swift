import DCCBOR
import DCJSON
import DCStatusList
import Foundation
import Testing

/// Referenced tokens: the SD-JWT VC `status` claim and the mdoc MSO `status` (its round trip
/// through a `MobileSecurityObject` is in DCIssuerTests, MdocStatusReferenceTests).
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
