import DCCBOR
import Testing

/// `CBORMapReader`: one way to read a model structure's map, with errors naming the structure,
/// the key and the clause (issue 11 §6).
struct CBORMapReaderTests {
  static let clause = "ISO 18013-5 §8.3.2.1.2.1"

  func reader(_ map: CBORMap) throws -> CBORMapReader {
    try CBORMapReader(
      .map(map), structure: "DocRequest", clause: Self.clause,
      knownKeys: ["itemsRequest", "readerAuth"])
  }

  @Test func readsRequiredAndOptionalValues() throws {
    let map = try reader(["itemsRequest": "x", "other": 1])
    #expect(try map.required("itemsRequest", as: String.self) == "x")
    #expect(try map.optional("readerAuth", as: String.self) == nil)
    #expect(map.unknownKeys == ["other"])
  }

  @Test func aMissingKeyNamesTheStructureKeyAndClause() throws {
    let map = try reader(["readerAuth": 1])
    #expect(
      throws: CBORError(
        .missingField,
        reason: "DocRequest.itemsRequest: missing required field (\(Self.clause))")
    ) {
      try map.required("itemsRequest", as: String.self)
    }
    let missingFieldError = #expect(throws: CBORError.self) {
      try map.requiredTag24("itemsRequest")
    }
    #expect(missingFieldError?.code == .missingField)
    let missingFieldError2 = #expect(throws: CBORError.self) { try map.requiredMap("itemsRequest") }
    #expect(missingFieldError2?.code == .missingField)
  }

  @Test func aWrongTypeNamesTheStructureKeyAndClause() throws {
    let map = try reader(["itemsRequest": 1, "readerAuth": "x"])
    #expect(
      throws: CBORError(
        .typeMismatch,
        reason:
          "DocRequest.itemsRequest: expected a text string, got unsigned integer (\(Self.clause))")
    ) {
      try map.required("itemsRequest", as: String.self)
    }
    #expect(
      throws: CBORError(
        .typeMismatch,
        reason: "DocRequest.itemsRequest: expected tag 24, got unsigned integer (\(Self.clause))")
    ) {
      try map.requiredTag24("itemsRequest")
    }
    #expect(
      throws: CBORError(
        .typeMismatch,
        reason: "DocRequest.readerAuth: expected a map, got text string (\(Self.clause))")
    ) {
      try map.optionalMap("readerAuth")
    }
    #expect(
      throws: CBORError(
        .typeMismatch, reason: "DocRequest: expected a map, got array (\(Self.clause))")
    ) {
      try CBORMapReader([1], structure: "DocRequest", clause: Self.clause)
    }
  }

  @Test func aRepeatedSetMemberIsRefused() throws {
    let map = try reader(["readerAuth": ["a", "b", "a"]])
    #expect(
      throws: CBORError(
        .duplicateMapKey, reason: "DocRequest.readerAuth: a appears twice (\(Self.clause))")
    ) {
      try map.uniqueTexts("readerAuth")
    }
    #expect(try reader(["readerAuth": ["a", "b"]]).uniqueTexts("readerAuth") == ["a", "b"])
  }

  @Test func aTag24ItemIsDecodedOnceWithItsBytesKept() throws {
    // 24(h'A0'): an empty map, embedded (RFC 8949 §3.4.5.1).
    let map = try reader(["itemsRequest": .tagged(24, .byteString([0xA0]))])
    let embedded = try map.requiredTag24("itemsRequest")
    #expect(embedded.bytes == [0xA0])
    #expect(embedded.value == .map([:]))
  }

  @Test func aNestedReaderNamesItsPath() throws {
    let map = try reader(["itemsRequest": ["docType": 1]])
    let inner = try map.requiredMap("itemsRequest")
    #expect(inner.structure == "DocRequest.itemsRequest")
    let typeMismatchError = #expect(throws: CBORError.self) {
      try inner.required("docType", as: String.self)
    }
    #expect(typeMismatchError?.code == .typeMismatch)
  }
}
