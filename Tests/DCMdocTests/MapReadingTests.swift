import DCCBOR
import DCCOSE
import DCCrypto
import DCMdoc
import Foundation
import Testing

/// Mdoc structures read through `CBORMapReader` (issue 11 §6): errors name the structure, the
/// key and the ISO 18013-5 clause; set-valued KeyAuthorizations members are checked.
struct MdocMapReadingTests {
  static let validity = ValidityInfo(
    signed: Date(timeIntervalSince1970: 1_700_000_000),
    validFrom: Date(timeIntervalSince1970: 1_700_000_000),
    validUntil: Date(timeIntervalSince1970: 1_800_000_000))

  func mso(_ authorizations: KeyAuthorizations) throws -> MobileSecurityObject {
    MobileSecurityObject(
      digestAlgorithm: .sha256,
      valueDigests: [("org.example", [(0, [UInt8](repeating: 1, count: 32))])],
      deviceKey: COSEKey(publicKey: try ECPrivateKey(curve: .p256).publicKey),
      keyAuthorizations: authorizations, docType: "org.example.doc", validityInfo: Self.validity)
  }

  @Test func keyAuthorizationsThatAreSetsAreRead() throws {
    let built = try mso(KeyAuthorizations(nameSpaces: ["a"], dataElements: ["b": ["x", "y"]]))
    let read = try MobileSecurityObject(encoded: built.encoded)
    #expect(read.keyAuthorizations == built.keyAuthorizations)
  }

  @Test func aNamespaceRepeatedInKeyAuthorizationsIsRefused() throws {
    let built = try mso(KeyAuthorizations(nameSpaces: ["a", "a"]))
    #expect {
      try MobileSecurityObject(encoded: built.encoded)
    } throws: { error in
      let error = error as? MdocError
      return error?.code == .malformed
        && (error?.underlying as? CBORError)?.code == .duplicateMapKey
        && error?.reason.contains(
          "MobileSecurityObject.deviceKeyInfo.keyAuthorizations.nameSpaces: a appears twice (ISO 18013-5 §9.1.2.4)"
        )
          == true
    }
  }

  @Test func aNamespaceInBothKeyAuthorizationListsIsRefused() throws {
    let built = try mso(KeyAuthorizations(nameSpaces: ["a"], dataElements: ["a": ["x"]]))
    #expect {
      try MobileSecurityObject(encoded: built.encoded)
    } throws: { error in
      let error = error as? MdocError
      return error?.code == .malformed
        && (error?.underlying as? CBORError)?.code == .duplicateMapKey
        && error?.reason.contains("dataElements: a is also in nameSpaces") == true
    }
  }

  @Test func aMissingValidityMemberIsNamedWithItsClause() throws {
    var map = try #require(try mso(KeyAuthorizations()).encoded.value.map)
    var validity = try #require(map["validityInfo"]?.map)
    validity["validUntil"] = nil
    map["validityInfo"] = .map(validity)
    #expect {
      try MobileSecurityObject(encoded: EncodedCBOR(encoding: .map(map)))
    } throws: { error in
      let error = error as? MdocError
      return error?.code == .malformed
        && (error?.underlying as? CBORError)?.code == .missingField
        && error?.reason.contains(
          "MobileSecurityObject.validityInfo.validUntil: missing required field (ISO 18013-5 §9.1.2.4)"
        )
          == true
    }
  }

  @Test func aDocRequestWithoutItemsRequestNamesKeyAndClause() throws {
    let request: CBOR = [
      "version": "1.0", "docRequests": [["readerAuth": .null]],
    ]
    #expect {
      try DeviceRequest(cbor: request)
    } throws: { error in
      let error = error as? MdocError
      return error?.code == .malformed
        && error?.reason.contains(
          "DocRequest.itemsRequest: missing required field (ISO 18013-5 §8.3.2.1.2.1)") == true
    }
  }

  @Test func anItemsRequestThatIsNotTag24NamesKeyAndClause() throws {
    let request: CBOR = ["version": "1.0", "docRequests": [["itemsRequest": ["docType": "x"]]]]
    #expect {
      try DeviceRequest(cbor: request)
    } throws: { error in
      (error as? MdocError)?.reason.contains(
        "DocRequest.itemsRequest: expected tag 24, got map (ISO 18013-5 §8.3.2.1.2.1)") == true
    }
  }

  @Test func unknownKeysAreAllowed() throws {
    let items: CBOR = [
      "docType": "org.example.doc", "nameSpaces": ["ns": ["e": true]], "future": 1,
    ]
    let request = try ItemsRequest(cbor: items)
    #expect(request.docType == "org.example.doc")
  }
}
