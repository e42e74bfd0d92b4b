import DCCBOR
import DCTestSupport
import Foundation
import Testing

@testable import DCMdoc

/// The ISO 18013-5 second edition ZK structures: Google Wallet's two captures read as the three
/// independent implementations read them, round trips, and every bound refused past its limit.
@Suite("Zero-knowledge structures")
struct ZeroKnowledgeStructureTests {

  /// A capture's SessionTranscript bytes and DeviceResponse bytes.
  static func capture(_ name: String) throws -> (transcript: [UInt8], response: [UInt8]) {
    let object = try VectorFile.object(name, in: Bundle.module)
    let transcript = try #require(
      (object["Transcript"] as? String).flatMap { Data(base64Encoded: $0) })
    let response = try #require(
      (object["ZKDeviceResponseCBOR"] as? String).flatMap { Data(base64Encoded: $0) })
    return (Array(transcript), Array(response))
  }

  @Test(
    "Google Wallet's captures read",
    arguments: [
      (
        "longfellow-post1", "137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6",
        "2025-12-01T23:59:59Z", 323_292
      ),
      (
        "longfellow-post2", "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121",
        "2026-01-12T23:59:59Z", 362_132
      ),
    ])
  func captures(name: String, circuit: String, timestamp: String, proofLength: Int) throws {
    let (transcript, bytes) = try Self.capture(name)
    let response = try DeviceResponse(bytes: bytes)
    #expect(response.status == 0 && response.documents.isEmpty)
    let zk = try #require(response.zkDocuments.first)
    #expect(response.zkDocuments.count == 1)
    #expect(zk.proof.count == proofLength)
    let data = zk.documentData
    #expect(data.zkSystemId == circuit)
    #expect(data.docType == "org.iso.18013.5.1.mDL")
    #expect(data.timestamp == timestamp)
    #expect(data.deviceSigned.isEmpty)
    #expect(data.msoX5chain.count == 1 && data.msoX5chain[0].count == 718)
    let elements = data.disclosedElements
    #expect(elements.count == 1)
    #expect(elements.first?.nameSpace == "org.iso.18013.5.1")
    #expect(elements.first?.item.elementIdentifier == "age_over_18")
    #expect(elements.first?.item.elementValue == .boolean(true))
    #expect(elements.first?.item.elementValueBytes == [0xF5])
    // The transcript is the OpenID4VP DC API handover (OpenID4VP 1.0 Appendix B.2.6.2).
    let handover = try SessionTranscript(bytes: transcript).handover
    #expect(handover.array?.first == .textString("OpenID4VPDCAPIHandover"))
    // Re-encoded, the response reads back the same, with documentData's bytes as received.
    let again = try DeviceResponse(bytes: response.bytes)
    #expect(again == response)
    #expect(again.zkDocuments[0].documentDataBytes.bytes == zk.documentDataBytes.bytes)
    #expect(try response.bytes == DeviceResponse(cbor: response.cbor).bytes)
  }

  static func documentData(
    timestamp: CBOR = .tagged(0, .textString("2026-01-12T23:59:59Z")),
    chain: CBOR = .byteString([0x30, 0x00]), items: Int = 1, extra: CBORMap = [:]
  ) -> CBOR {
    var map: CBORMap = [
      .textString("docType"): .textString("org.iso.18013.5.1.mDL"),
      .textString("zkSystemId"): .textString("abc"),
      .textString("timestamp"): timestamp,
      .textString("msoX5chain"): chain,
      .textString("issuerSigned"): [
        .textString("org.iso.18013.5.1"): .array(
          (0..<items).map {
            [
              .textString("elementIdentifier"): .textString("age_over_\($0)"),
              .textString("elementValue"): .boolean(true),
            ]
          })
      ],
    ]
    for (key, value) in extra { map[key: key] = value }
    return .map(map)
  }

  static func zkDocument(_ data: CBOR, proof: Int = 32) -> CBOR {
    [
      .textString("documentData"): EncodedCBOR(encoding: data).tag24,
      .textString("proof"): .byteString(Array(repeating: 7, count: proof)),
    ]
  }

  static func response(_ documents: [CBOR]) -> [UInt8] {
    CBOR.map([
      .textString("version"): .textString("1.0"), .textString("status"): .unsigned(0),
      .textString("zkDocuments"): .array(documents),
    ]).encoded()
  }

  @Test("A ZkDocument built here reads back")
  func roundTrip() throws {
    let data = ZkDocumentData(
      zkSystemId: "id", docType: "org.iso.18013.5.1.mDL", timestamp: "2026-01-12T23:59:59Z",
      issuerSigned: [
        (
          "org.iso.18013.5.1",
          [ZkSignedItem(elementIdentifier: "age_over_18", elementValue: .boolean(true))]
        )
      ], msoX5chain: [[1, 2], [3]])
    let response = DeviceResponse(
      documents: [], zkDocuments: [ZkDocument(documentData: data, proof: [1, 2, 3])])
    let read = try DeviceResponse(bytes: response.bytes)
    #expect(read.zkDocuments == response.zkDocuments)
    #expect(read.zkDocuments[0].documentData.msoX5chain == [[1, 2], [3]])
  }

  @Test(
    "Malformed ZK documents are refused",
    arguments: [
      (
        "tdate with fraction",
        documentData(timestamp: .tagged(0, .textString("2026-01-12T23:59:59.5Z"))), 32
      ),
      ("timestamp untagged", documentData(timestamp: .textString("2026-01-12T23:59:59Z")), 32),
      (
        "timestamp offset",
        documentData(timestamp: .tagged(0, .textString("2026-01-12T23:59:59+00"))), 32
      ),
      ("chain empty array", documentData(chain: .array([])), 32),
      (
        "chain of 11", documentData(chain: .array(Array(repeating: .byteString([1]), count: 11))),
        32
      ),
      ("chain of text", documentData(chain: .textString("cert")), 32),
      ("17 elements", documentData(items: 17), 32),
      ("no elements", documentData(items: 0), 32),
      ("empty proof", documentData(), 0),
      ("proof past the limit", documentData(), ZkDocument.maxProofLength + 1),
    ])
  func malformed(_ what: String, data: CBOR, proof: Int) {
    #expect(throws: MdocError.self, "\(what)") {
      try DeviceResponse(bytes: Self.response([Self.zkDocument(data, proof: proof)]))
    }
  }

  @Test("The bounds hold at their limits")
  func atLimits() throws {
    let data = Self.documentData(
      chain: .array(Array(repeating: .byteString([1]), count: 10)), items: 16)
    let read = try DeviceResponse(
      bytes: Self.response([Self.zkDocument(data, proof: ZkDocument.maxProofLength)]))
    #expect(read.zkDocuments[0].documentData.disclosedElements.count == 16)
    let eight = Array(repeating: Self.zkDocument(Self.documentData()), count: 8)
    #expect(try DeviceResponse(bytes: Self.response(eight)).zkDocuments.count == 8)
    #expect(throws: MdocError.self) {
      try DeviceResponse(bytes: Self.response(eight + [Self.zkDocument(Self.documentData())]))
    }
  }

  @Test("A repeated element identifier is refused")
  func repeatedElement() {
    let item: CBOR = [
      .textString("elementIdentifier"): .textString("age_over_18"),
      .textString("elementValue"): .boolean(true),
    ]
    let data = Self.documentData(extra: [
      .textString("issuerSigned"): [.textString("org.iso.18013.5.1"): .array([item, item])]
    ])
    #expect(throws: MdocError.self) {
      try DeviceResponse(bytes: Self.response([Self.zkDocument(data)]))
    }
  }

  static let spec = ZkSystemSpec(
    longfellowCircuitHash: "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121",
    numAttributes: 1, version: 7, blockEncHash: 4151, blockEncSig: 4096)

  @Test("A ZK request rides in the ItemsRequest's requestInfo and reads back")
  func requestRoundTrip() throws {
    let items = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL", zeroKnowledge: ZkRequest(systemSpecs: [Self.spec]),
      nameSpaces: [("org.iso.18013.5.1", ["age_over_18"])])
    let request = DeviceRequest(docRequests: [DocRequest(itemsRequest: items)])
    let read = try DeviceRequest(bytes: request.bytes)
    let zk = try #require(try read.docRequests[0].itemsRequest.zkRequest)
    #expect(zk.zkRequired)
    #expect(zk.systemSpecs == [Self.spec])
    let spec = zk.systemSpecs[0]
    #expect(spec.circuitHash == spec.zkSystemId && spec.numAttributes == 1 && spec.version == 7)
    #expect(spec.blockEncHash == 4151 && spec.blockEncSig == 4096)
    #expect(try DeviceRequestReadingTests.items("d", [("n", [("e", true)])]).zkRequest == nil)
  }

  static func spec(_ extra: CBORMap = [:], drop: String? = nil) -> CBOR {
    var map: CBORMap = [
      .textString("zkSystemId"): .textString("x"), .textString("system"): .textString("s"),
      .textString("params"): [.textString("version"): .unsigned(7)],
    ]
    for (key, value) in extra { map[key: key] = value }
    if let drop { map = CBORMap(map.filter { $0.0 != .textString(drop) }) }
    return .map(map)
  }

  static func request(specs: [CBOR]) -> ItemsRequest {
    ItemsRequest(
      docType: "d", nameSpaces: [("n", [ItemsRequest.Element("e", intentToRetain: false)])],
      requestInfo: [
        .textString("zkRequest"): [
          .textString("systemSpecs"): .array(specs), .textString("zkRequired"): .boolean(true),
        ]
      ])
  }

  @Test(
    "Malformed ZK requests are refused",
    arguments: [
      ("no specs", [CBOR]()),
      ("65 specs", Array(repeating: spec(), count: 65)),
      ("no zkSystemId", [spec(drop: "zkSystemId")]),
      ("no system", [spec(drop: "system")]),
      (
        "long id",
        [spec([.textString("zkSystemId"): .textString(String(repeating: "a", count: 257))])]
      ),
      (
        "33 params",
        [
          spec([
            .textString("params"): .map(
              CBORMap((0..<33).map { (.textString("p\($0)"), .unsigned(1)) }))
          ])
        ]
      ),
      ("array param", [spec([.textString("params"): [.textString("p"): .array([])]])]),
      ("integer key", [spec([.textString("params"): [.unsigned(1): .unsigned(1)]])]),
    ])
  func malformedRequest(_ what: String, specs: [CBOR]) {
    #expect(throws: MdocError.self, "\(what)") { try Self.request(specs: specs).zkRequest }
  }

  @Test("ZK requests at their limits read")
  func requestAtLimits() throws {
    let params = CBORMap((0..<32).map { (.textString("p\($0)"), .unsigned(1)) })
    let specs = Array(repeating: Self.spec([.textString("params"): .map(params)]), count: 64)
    let zk = try #require(try Self.request(specs: specs).zkRequest)
    #expect(zk.systemSpecs.count == 64 && zk.systemSpecs[0].params.count == 32)
  }
}
