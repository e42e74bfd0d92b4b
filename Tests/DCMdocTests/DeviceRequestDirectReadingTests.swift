import DCCBOR
import DCCOSE
import Foundation
import Testing

@testable import DCMdoc

/// `DeviceRequest.readDirectly` against the generic decoder (`init(cbor: CBOR.decode(bytes))`):
/// whenever the direct reader gives a request, it is the generic one field by field; the plain
/// shapes are read directly; every refusal is left to the generic path.
@Suite("DeviceRequest direct reading")
struct DeviceRequestDirectReadingTests {

  /// The generic path's result, or nil when it throws.
  static func generic(_ bytes: [UInt8]) -> DeviceRequest? {
    guard let cbor = try? CBOR.decode(bytes) else { return nil }
    return try? DeviceRequest(cbor: cbor)
  }

  /// Field-by-field equality, including the decoded values kept next to the signed bytes.
  static func expectSame(_ direct: DeviceRequest, _ generic: DeviceRequest) {
    #expect(direct == generic)
    #expect(direct.version == generic.version)
    #expect(direct.deviceRequestInfo?.bytes == generic.deviceRequestInfo?.bytes)
    #expect(direct.deviceRequestInfo?.value == generic.deviceRequestInfo?.value)
    #expect(direct.readerAuthAll == generic.readerAuthAll)
    #expect(direct.docRequests.count == generic.docRequests.count)
    for (a, b) in zip(direct.docRequests, generic.docRequests) {
      #expect(a.itemsRequestBytes.bytes == b.itemsRequestBytes.bytes)
      #expect(a.itemsRequestBytes.value == b.itemsRequestBytes.value)
      #expect(a.readerAuth == b.readerAuth)
      #expect(a.itemsRequest.docType == b.itemsRequest.docType)
      #expect(a.itemsRequest.requestInfo == b.itemsRequest.requestInfo)
      #expect(
        a.itemsRequest.nameSpaces.map(\.nameSpace) == b.itemsRequest.nameSpaces.map(\.nameSpace))
      #expect(
        a.itemsRequest.nameSpaces.map(\.elements) == b.itemsRequest.nameSpaces.map(\.elements))
    }
  }

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

  /// Requests of every shape the direct reader reads.
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
    "Plain requests (30 elements, several doc requests, requestInfo, readerAuth, use cases, readerAuthAll) are read directly, equal to the generic decoding"
  )
  func plainShapes() throws {
    for bytes in try Self.plainRequests() {
      let direct = try #require(DeviceRequest.readDirectly(bytes))
      let generic = try #require(Self.generic(bytes))
      Self.expectSame(direct, generic)
      Self.expectSame(try DeviceRequest(bytes: bytes), generic)
      #expect(direct.bytes == bytes)
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
    "Odd but valid encodings (long heads, other key orders, non-ASCII names) read as the generic decoder reads them"
  )
  func oddEncodings() throws {
    for width in [0, 1, 2, 4, 8] {
      for swap in [false, true] {
        let bytes = Self.handWritten(
          width: width, swapKeys: swap, elementKeys: ["b", "a", "ä", "a\u{308}"])
        let direct = try #require(DeviceRequest.readDirectly(bytes), "width \(width)")
        Self.expectSame(direct, try #require(Self.generic(bytes)))
      }
    }
  }

  @Test("Refused requests are left to the generic path, which refuses them")
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
      #expect(DeviceRequest.readDirectly(bytes) == nil, "\(name)")
      #expect(Self.generic(bytes) == nil, "\(name)")
      let malformedError = #expect(throws: MdocError.self, "\(name)") {
        try DeviceRequest(bytes: bytes)
      }
      #expect(malformedError?.code == .malformed)
    }
    // Repeated namespace, repeated top key, empty docRequests, a readerAuth that is no COSE_Sign1.
    let one = try #require(Self.generic(try Self.plainRequests()[1])).docRequests[0]
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
      let bytes = mdoc.encode(value)
      #expect(DeviceRequest.readDirectly(bytes) == nil, "\(name)")
      #expect(Self.generic(bytes) == nil, "\(name)")
    }
  }

  @Test(
    "Every single-byte change and truncation of the plain requests: the direct reader gives the generic result or leaves it to the generic path"
  )
  func mutations() throws {
    var read = 0
    for bytes in try Self.plainRequests() {
      var variants: [[UInt8]] = (0..<bytes.count).map { Array(bytes[..<$0]) }
      for index in bytes.indices {
        for replacement: UInt8 in [
          0x00, 0x18, 0x5f, 0x7f, 0xbf, 0xf5, 0xff, bytes[index] ^ 0x01, bytes[index] &+ 1,
        ] where replacement != bytes[index] {
          var copy = bytes
          copy[index] = replacement
          variants.append(copy)
        }
      }
      for variant in variants {
        guard let direct = DeviceRequest.readDirectly(variant) else { continue }
        read += 1
        let generic = try #require(Self.generic(variant), "\(variant)")
        Self.expectSame(direct, generic)
      }
    }
    #expect(read > 0)
  }

  @Test(
    "The committed fuzz corpora of device-request and annexc-request: direct result equal to the generic one or nil"
  )
  func fuzzCorpora() throws {
    let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fuzz/corpus")
    var inputs = 0
    var read = 0
    for target in ["device-request", "annexc-request"] {
      let folder = corpus.appendingPathComponent(target)
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
        let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
        inputs += 1
        guard let direct = DeviceRequest.readDirectly(bytes) else { continue }
        read += 1
        Self.expectSame(direct, try #require(Self.generic(bytes), "\(target)/\(name)"))
      }
    }
    #expect(inputs > 100)
    #expect(read > 0)
  }
}
