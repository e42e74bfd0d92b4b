import DCCBOR
import DCCOSE
import Foundation
import Testing

@testable import DCMdoc

/// `DeviceRequest(bytes:)`: the plain shapes and odd but valid encodings are read with every
/// signed part's bytes kept as received; malformed requests are refused.
@Suite("DeviceRequest reading")
struct DeviceRequestReadingTests {

  static func items(_ docType: String, _ spaces: [(String, [(String, Bool)])], info: CBORMap? = nil)
    -> ItemsRequest
  {
    ItemsRequest(
      docType: docType,
      nameSpaces: spaces.map {
        ($0.0, $0.1.map { ItemsRequest.Element($0.0, intentToRetain: $0.1) })
      },
      requestInfo: info)
  }

  static func annexDReaderAuth() throws -> COSESign1 {
    let request = try DeviceRequest(bytes: try AnnexD().hex("device_request"))
    return try #require(request.docRequests[0].readerAuth)
  }

  /// Requests of many shapes.
  static func plainRequests() throws -> [[UInt8]] {
    let mdl = "org.iso.18013.5.1"
    let thirty = (0..<30).map { ("element_\($0)", $0 % 3 == 0) }
    let readerAuth = try annexDReaderAuth()
    let one = DocRequest(itemsRequest: items("org.iso.18013.5.1.mDL", [(mdl, thirty)]))
    let withInfo = DocRequest(
      itemsRequest: items(
        "org.example.doc",
        [("org.example.ns", [("b", true), ("a", false)]), ("ns2", [("é", true)])],
        info: [
          .textString("purpose"): .unsigned(3), .unsigned(1): .array([.null, .boolean(true)]),
        ]))
    let signed = DocRequest(
      itemsRequest: items("org.iso.18013.5.1.mDL", [(mdl, [("portrait", false)])]),
      readerAuth: readerAuth)
    return [
      try AnnexD().hex("device_request"),
      DeviceRequest(docRequests: [one]).bytes,
      DeviceRequest(docRequests: [one, withInfo, signed]).bytes,
      DeviceRequest(
        docRequests: [withInfo, one],
        useCases: [UseCase(mandatory: true, documentSets: [[0], [1]], purposeHints: ["x": 1])]
      ).bytes,
      DeviceRequest(docRequests: [signed], useCases: [], readerAuthAll: [readerAuth, readerAuth])
        .bytes,
    ]
  }

  @Test(
    "Plain requests (30 elements, several doc requests, requestInfo, readerAuth, use cases, readerAuthAll) are read and re-encode to their bytes"
  )
  func plainShapes() throws {
    for bytes in try Self.plainRequests() {
      let request = try DeviceRequest(bytes: bytes)
      #expect(request.bytes == bytes)
      // ItemsRequestBytes are kept as received (readerAuth signs them, §9.1.4).
      for docRequest in request.docRequests {
        let kept = docRequest.itemsRequestBytes.bytes
        #expect(bytes.firstRange(of: kept) != nil)
        #expect(docRequest.itemsRequestBytes.value == (try CBOR.decode(kept)))
      }
    }
  }

  /// Writes a head with the given width (0: in the initial byte), RFC 8949 §3.
  static func head(_ major: UInt8, _ value: Int, width: Int) -> [UInt8] {
    switch width {
    case 0: return [major << 5 | UInt8(value)]
    case 1: return [major << 5 | 24, UInt8(value)]
    case 2: return [major << 5 | 25, UInt8(value >> 8), UInt8(value & 0xff)]
    case 4: return [major << 5 | 26] + [24, 16, 8, 0].map { UInt8((value >> $0) & 0xff) }
    default:
      return [major << 5 | 27] + [56, 48, 40, 32, 24, 16, 8, 0].map { UInt8((value >> $0) & 0xff) }
    }
  }

  static func text(_ s: String, width: Int = 0) -> [UInt8] {
    let utf8 = Array(s.utf8)
    return head(3, utf8.count, width: utf8.count < 24 ? width : max(width, 1)) + utf8
  }

  /// A request written by hand with every head at the given width and keys in a chosen order.
  static func handWritten(
    width: Int, swapKeys: Bool, elementKeys: [String] = ["a", "b"], rawKeys: [[UInt8]]? = nil
  ) -> [UInt8] {
    let keys = rawKeys ?? elementKeys.map { text($0, width: width) }
    var elements = head(5, keys.count, width: width)
    for key in keys { elements += key + [0xf5] }
    var itemsPairs = [
      text("docType", width: width) + text("d", width: width),
      text("nameSpaces", width: width) + head(5, 1, width: width) + text("ns", width: width)
        + elements,
    ]
    if swapKeys { itemsPairs.reverse() }
    let itemsBytes = head(5, 2, width: width) + itemsPairs.joined()
    let doc =
      head(5, 1, width: width) + text("itemsRequest", width: width)
      + head(6, 24, width: max(width, 1))
      + head(2, itemsBytes.count, width: max(width, 1)) + itemsBytes
    var pairs = [
      text("version", width: width) + text("1.0", width: width),
      text("docRequests", width: width) + head(4, 1, width: width) + doc,
    ]
    if swapKeys { pairs.reverse() }
    return head(5, 2, width: width) + pairs.joined()
  }

  @Test(
    "Odd but valid encodings (long heads, other key orders, non-ASCII names) are read, ItemsRequestBytes kept as received"
  )
  func oddEncodings() throws {
    let names = ["b", "a", "ä", "a\u{308}"]
    for width in [0, 1, 2, 4, 8] {
      for swap in [false, true] {
        let bytes = Self.handWritten(width: width, swapKeys: swap, elementKeys: names)
        let request = try DeviceRequest(bytes: bytes)
        #expect(request.version == "1.0", "width \(width)")
        let docRequest = try #require(request.docRequests.first)
        #expect(docRequest.itemsRequest.docType == "d")
        #expect(docRequest.itemsRequest.nameSpaces.map(\.nameSpace) == ["ns"])
        #expect(
          docRequest.itemsRequest.nameSpaces.first?.elements
            == names.map { ItemsRequest.Element($0, intentToRetain: true) })
        #expect(bytes.firstRange(of: docRequest.itemsRequestBytes.bytes) != nil)
      }
    }
  }

  @Test("Malformed requests are refused")
  func refusals() throws {
    let cases: [(String, [UInt8])] = [
      ("element twice", Self.handWritten(width: 0, swapKeys: false, elementKeys: ["a", "a"])),
      (
        "element twice, other head",
        Self.handWritten(width: 0, swapKeys: false, rawKeys: [[0x61, 0x61], [0x78, 0x01, 0x61]])
      ),
      (
        "version 2",
        Self.handWritten(width: 0, swapKeys: false).replacing(
          Array("1.0".utf8), with: Array("2.0".utf8))
      ),
      ("trailing byte", Self.handWritten(width: 0, swapKeys: false) + [0x00]),
      ("no elements", Self.handWritten(width: 0, swapKeys: false, elementKeys: [])),
      (
        "intent not a bool",
        Self.handWritten(width: 0, swapKeys: false).replacing(
          [0x61, 0x61, 0xf5], with: [0x61, 0x61, 0xf6])
      ),
    ]
    for (name, bytes) in cases {
      let malformedError = #expect(throws: MdocError.self, "\(name)") {
        try DeviceRequest(bytes: bytes)
      }
      #expect(malformedError?.code == .malformed)
    }
    // Repeated namespace, repeated top key, empty docRequests, a readerAuth that is no COSE_Sign1.
    let one = try DeviceRequest(bytes: try Self.plainRequests()[1]).docRequests[0]
    let spaces: CBOR = .map(
      CBORMap(
        uncheckedKeys: [.textString("n"), .textString("n")],
        values: [
          .map([.textString("a"): .boolean(true)]), .map([.textString("b"): .boolean(true)]),
        ]))
    let twiceItems = CBOR.map([
      .textString("docType"): .textString("d"), .textString("nameSpaces"): spaces,
    ])
    let mdoc = CBOREncoder(mapOrder: .preserved)
    let structures: [(String, CBOR)] = [
      (
        "namespace twice",
        .map([
          .textString("version"): .textString("1.0"),
          .textString("docRequests"): .array([
            .map([
              .textString("itemsRequest"): .tagged(24, .byteString(mdoc.encode(twiceItems)))
            ])
          ]),
        ])
      ),
      (
        "top key twice",
        .map(
          CBORMap(
            uncheckedKeys: [
              .textString("version"), .textString("version"), .textString("docRequests"),
            ], values: [.textString("1.0"), .textString("1.0"), .array([one.cbor])]))
      ),
      (
        "no docRequests",
        .map([.textString("version"): .textString("1.0"), .textString("docRequests"): .array([])])
      ),
      (
        "readerAuth not COSE_Sign1",
        .map([
          .textString("version"): .textString("1.0"),
          .textString("docRequests"): .array([
            .map([
              .textString("itemsRequest"): one.itemsRequestBytes.tag24,
              .textString("readerAuth"): .array([]),
            ])
          ]),
        ])
      ),
    ]
    for (name, value) in structures {
      #expect(throws: MdocError.self, "\(name)") { try DeviceRequest(bytes: mdoc.encode(value)) }
    }
  }
}
