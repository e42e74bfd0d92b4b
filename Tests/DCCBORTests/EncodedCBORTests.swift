import DCCBOR
import Testing

/// RFC 8949 §3.4.5.1: tag 24 embeds an encoded data item whose bytes must survive untouched.
struct EncodedCBORTests {
  // {2: 0, 1: 0, 5: 5} with unsorted keys and 5 in a two-byte head: not deterministic on purpose.
  let inner = [UInt8](hex: "a30200010018 05 1805")

  @Test func tag24KeepsNonDeterministicBytes() throws {
    let outer = [UInt8](hex: "a2 6178 d818 49") + inner + [UInt8](hex: "6179 d818 42 1801")
    let value = try CBOR.decode(outer)
    #expect(value.encoded() == outer)
    #expect(CBOREncoder(mapOrder: .preserved).encode(value) == outer)

    let embedded = try #require(value["x"]).requireTag24("Outer.x")
    #expect(embedded.bytes == inner)
    #expect(embedded.value[2] == 0)
    #expect(embedded.value[5] == 5)
    #expect(embedded.tag24 == value["x"])
    let again = try EncodedCBOR(tag24: embedded.tag24)
    #expect(again == embedded)
    #expect(embedded.value.encoded() != inner)
  }

  @Test func encodedItemsAreSplicedVerbatim() throws {
    let kept = try EncodedCBOR(bytes: inner)
    let wrapper: CBOR = [1, .encoded(kept), kept.tag24]
    let bytes = wrapper.encoded()
    #expect(bytes == [0x83, 0x01] + inner + [0xd8, 0x18, 0x49] + inner)
    // Accessors look through `.encoded`.
    #expect(CBOR.encoded(kept)[1] == 0)
    #expect(CBOR.encoded(kept).map?.count == 3)
    // Sorting map keys uses the spliced bytes.
    let map: CBOR = [.encoded(try EncodedCBOR(bytes: [0x18, 0x02])): 1, 3: 2]
    #expect(map.encoded().hex == "a20302180201")
  }

  @Test func encodingInitializerIsDeterministic() {
    let encoded = EncodedCBOR(encoding: ["b": 1, "a": 2])
    #expect(encoded.bytes.hex == "a2616102616201")
    #expect(encoded.value["a"] == 2)
    #expect(encoded == EncodedCBOR(encoding: ["a": 2, "b": 1]))
  }

  @Test func tag24Errors() {
    let invalidTagContentError = #expect(throws: CBORError.self) {
      try EncodedCBOR(tag24: .tagged(24, 1))
    }
    #expect(invalidTagContentError?.code == .invalidTagContent)
    let typeMismatchError = #expect(throws: CBORError.self) {
      try EncodedCBOR(tag24: .byteString([1]))
    }
    #expect(typeMismatchError?.code == .typeMismatch)
    let truncatedError = #expect(throws: CBORError.self) {
      try EncodedCBOR(tag24: .tagged(24, .byteString([0x82, 0x01])))
    }
    #expect(truncatedError?.code == .truncated)
    let trailingBytesError = #expect(throws: CBORError.self) {
      try EncodedCBOR(bytes: [0x01, 0x02])
    }
    #expect(trailingBytesError?.code == .trailingBytes)
    do {
      _ = try CBOR.tagged(23, .byteString([])).requireTag24("DocRequest.itemsRequest")
      Issue.record("expected a failure")
    } catch {
      #expect(error.code == .typeMismatch)
      #expect(error.reason.hasPrefix("DocRequest.itemsRequest: expected tag 24"))
    }
  }
}
