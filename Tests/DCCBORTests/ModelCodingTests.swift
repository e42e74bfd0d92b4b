import DCCBOR
import Foundation
import Testing

/// Model types read with `required`/`optional` (RFC 8949 §5: CBOR-based protocols).
struct ModelCodingTests {
  /// A small model shaped like ISO 18013-5 ItemsRequest with a COSE-style integer label.
  struct ItemsRequest: CBORCodable, Equatable {
    var docType: String
    var nameSpaces: [String: [String: Bool]]
    var requestInfo: [String: CBOR]?
    var algorithm: Int?
    var issued: FullDate
    var payload: ByteString

    func cbor() -> CBOR {
      var map: CBORMap = [
        "docType": docType.cbor(), "nameSpaces": nameSpaces.cbor(), "issued": issued.cbor(),
        "payload": payload.cbor(),
      ]
      map["requestInfo"] = requestInfo?.cbor()
      map[1] = algorithm?.cbor()
      return .map(map)
    }

    init(
      docType: String, nameSpaces: [String: [String: Bool]], requestInfo: [String: CBOR]?,
      algorithm: Int?, issued: FullDate, payload: ByteString
    ) {
      self.docType = docType
      self.nameSpaces = nameSpaces
      self.requestInfo = requestInfo
      self.algorithm = algorithm
      self.issued = issued
      self.payload = payload
    }

    init(cbor: CBOR) throws(CBORError) {
      let map = try cbor.requireMap("ItemsRequest")
      docType = try map.required("docType", in: "ItemsRequest")
      nameSpaces = try map.required("nameSpaces", in: "ItemsRequest")
      requestInfo = try map.optional("requestInfo", in: "ItemsRequest")
      algorithm = try map.optional(1, in: "ItemsRequest")
      issued = try map.required("issued", in: "ItemsRequest")
      payload = try map.required("payload", in: "ItemsRequest")
    }
  }

  func sample() throws -> ItemsRequest {
    ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: ["org.iso.18013.5.1": ["family_name": true, "portrait": false]],
      requestInfo: nil, algorithm: -7, issued: try FullDate("2024-05-01"),
      payload: ByteString([1, 2, 3]))
  }

  @Test func roundTrip() throws {
    let model = try sample()
    let bytes = model.cbor().encoded()
    let decoded = try ItemsRequest(cbor: CBOR.decode(bytes))
    #expect(decoded == model)
    #expect(try CBOR.decode(bytes)[1] == -7)
    #expect(try CBOR.decode(bytes)["docType"]?.text == "org.iso.18013.5.1.mDL")
  }

  @Test func errorsNameTheField() throws {
    var map = try #require(try sample().cbor().map)
    map["docType"] = 5
    do {
      _ = try ItemsRequest(cbor: .map(map))
      Issue.record("expected a failure")
    } catch {
      #expect(error.code == .typeMismatch)
      #expect(error.reason == "ItemsRequest.docType: expected a text string, got unsigned integer")
    }

    map["docType"] = nil
    do {
      _ = try ItemsRequest(cbor: .map(map))
      Issue.record("expected a failure")
    } catch {
      #expect(error.code == .missingField)
      #expect(error.reason == "ItemsRequest.docType: missing required field")
    }

    var nested = try #require(try sample().cbor().map)
    nested["nameSpaces"] = ["org.iso.18013.5.1": ["family_name": "yes"]]
    do {
      _ = try ItemsRequest(cbor: .map(nested))
      Issue.record("expected a failure")
    } catch {
      #expect(
        error.reason
          == "ItemsRequest.nameSpaces[\"org.iso.18013.5.1\"][\"family_name\"]: expected a boolean, got text string"
      )
    }

    var labelled = try #require(try sample().cbor().map)
    labelled[1] = "ES256"
    do {
      _ = try ItemsRequest(cbor: .map(labelled))
      Issue.record("expected a failure")
    } catch {
      #expect(error.reason.contains("ItemsRequest.1"), "\(error)")
    }
  }

  @Test func requireHelpers() throws {
    let value: CBOR = [1, "two", .byteString([3]), true, nil]
    let items = try value.requireArray("Row", count: 5)
    #expect(try items[0].requireInt("Row[0]") == 1)
    #expect(try items[1].requireText("Row[1]") == "two")
    #expect(try items[2].requireBytes("Row[2]") == [3])
    #expect(try items[3].requireBool("Row[3]"))
    #expect(try [Int?](cbor: [1, nil]) == [1, nil])
    let typeMismatchError = #expect(throws: CBORError.self) {
      try value.requireArray("Row", count: 4)
    }
    #expect(typeMismatchError?.code == .typeMismatch)
    let typeMismatchError2 = #expect(throws: CBORError.self) { try value.requireMap("Row") }
    #expect(typeMismatchError2?.code == .typeMismatch)
    let valueOutOfRangeError = #expect(throws: CBORError.self) {
      try CBOR.negative(.max).requireInt("Big")
    }
    #expect(valueOutOfRangeError?.code == .valueOutOfRange)
    let typeMismatchError3 = #expect(throws: CBORError.self) { try [Int](cbor: [1, "x"]) }
    #expect(typeMismatchError3?.code == .typeMismatch)
    do {
      _ = try CBOR.array([[1], [2, "x"]]).decode(as: [[Int]].self, in: "Matrix")
      Issue.record("expected a failure")
    } catch {
      #expect(error.reason == "Matrix[1][1]: expected an integer, got text string")
    }
    #expect(try CBOR.tagged(7, 1).requireTag(7, "T") == 1)
    #expect(try Double(cbor: .half(0x3e00)) == 1.5)
    #expect(try UInt64(cbor: .unsigned(.max)) == .max)
  }

  @Test func accessorsAndLiterals() {
    #expect(CBOR(-1) == .negative(0))
    #expect(CBOR(Int.min).int == Int.min)
    #expect(CBOR(Int.max).int == Int.max)
    #expect(CBOR.negative(UInt64(Int.max) + 1).int == nil)
    #expect(CBOR.unsigned(.max).int == nil)
    #expect(CBOR.unsigned(.max).uint64 == .max)
    let literal: CBOR = ["a": [1, 2.5, true, nil], 1: "x", -1: .byteString([9])]
    #expect(literal["a"]?.array?[1].double == 2.5)
    #expect(literal[1]?.text == "x")
    #expect(literal[-1]?.bytes == [9])
    #expect(literal[key: "a"]?.array?.count == 4)
    #expect(literal["a"]?.array?[3].isNull == true)
    #expect(CBOR.float(1.5).double == 1.5)
    var map: CBORMap = ["z": 1, "y": 2]
    map["z"] = 3
    map["w"] = 4
    #expect(map.keys == ["z", "y", "w"])
    #expect(map.values == [3, 2, 4])
    #expect(map.pairs.map(\.key) == ["z", "y", "w"])
    map["y"] = nil
    #expect(map.count == 2)
    #expect(Array(map).map(\.value) == [3, 4])
  }

  @Test func largeMapsKeepOrderAndLookups() throws {
    var map = CBORMap()
    for index in 0..<40 { map[index] = CBOR(index * 10) }
    map[key: .encoded(EncodedCBOR(encoding: "k"))] = "encoded key"
    #expect(map["k"] == "encoded key")
    #expect(map[39] == 390)
    map[5] = nil
    map[6] = 61
    #expect(map[5] == nil)
    #expect(map[6] == 61)
    #expect(map[7] == 70)
    #expect(map.count == 40)
    #expect(map.keys.first == 0 && map.keys[5] == 6)
    for index in 0..<30 where index != 5 { map[index] = nil }
    #expect(map.count == 11)
    #expect(map[35] == 350 && map["k"] == "encoded key")
    let decoded = try CBOR.decode(CBOR.map(map).encoded())
    #expect(decoded[35] == 350)
    #expect(decoded.map?.count == 11)
  }

  @Test func dateModelConformance() throws {
    let date = Date(timeIntervalSince1970: 1_000_000_000)
    #expect(try Date(cbor: date.cbor()) == date)
    let typeMismatchError = #expect(throws: CBORError.self) {
      try Date(cbor: "2001-09-09T01:46:40Z")
    }
    #expect(typeMismatchError?.code == .typeMismatch)
  }
}
