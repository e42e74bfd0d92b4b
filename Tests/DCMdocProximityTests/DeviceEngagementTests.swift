import DCCBOR
import DCCrypto
import DCMdocProximity
import DCTestSupport
import Testing

@Suite("DeviceEngagement and the mdoc: URI (ISO 18013-5 §8.2.1.1, §8.2.2.3)")
struct DeviceEngagementTests {
  static let key = (try? ECPrivateKey(curve: .p256))?.publicKey
  static let uuid = [UInt8](repeating: 0x5A, count: 16)

  func keyBytes() throws -> CBOR {
    DeviceEngagement(eDeviceKey: try #require(Self.key)).eDeviceKeyBytes
  }

  /// An engagement map with `entries` replacing or adding to the defaults.
  func engagement(_ entries: [(Int, CBOR?)]) throws -> [UInt8] {
    var map: CBORMap = [0: "1.0", 1: [1, try keyBytes()]]
    for (key, value) in entries { map[key: CBOR(key)] = value }
    return CBOREncoder(mapOrder: .preserved).encode(.map(map))
  }

  func code(_ bytes: [UInt8]) -> MdocProximityErrorCode? {
    do {
      _ = try DeviceEngagement(bytes: bytes)
      return nil
    } catch {
      return error.code
    }
  }

  @Test("The holder's engagement has the BLE options 0, 1 and 10 in preferred serialization")
  func contract() throws {
    let key = try #require(Self.key)
    let engagement = DeviceEngagement(
      eDeviceKey: key, retrievalMethods: [.ble(try BLEOptions(peripheralServerUUID: Self.uuid))])
    let decoded = try CBORDecoder().decodeReportingDeterminism(engagement.bytes)
    #expect(decoded.isDeterministic)
    let options = try #require(decoded.value[2]?.array?.first?.array?[2])
    #expect(options[0] == .boolean(true))
    #expect(options[1] == .boolean(false))
    #expect(options[10] == .byteString(Self.uuid))
    #expect(options.map?.count == 3)
    #expect(decoded.value[2]?.array?.first?.array?[0] == 2)
    #expect(try DeviceEngagement(uri: engagement.uri) == engagement)
  }

  @Test("OriginInfos make version 1.1; in 1.0 key 5 is kept, not read; unknown keys are kept")
  func extensions() throws {
    let key = try #require(Self.key)
    let withOrigin = DeviceEngagement(
      eDeviceKey: key, originInfos: [.website(domain: "https://verifier.example")])
    #expect(withOrigin.version == "1.1")
    let read = try DeviceEngagement(bytes: withOrigin.bytes)
    #expect(read.originInfos.first?.domain == "https://verifier.example")

    let origin = OriginInfo.website(domain: "x").cbor
    let oldVersion = try DeviceEngagement(bytes: engagement([(5, [origin])]))
    #expect(oldVersion.originInfos.isEmpty)
    #expect(oldVersion.additionalEntries[5] == [origin])
    let extra = try DeviceEngagement(bytes: engagement([(3, [[1, 1, "x"]]), (99, "future")]))
    #expect(extra.additionalEntries[99] == "future")
    #expect(extra.additionalEntries.count == 2)
    let other = try DeviceEngagement(
      bytes: engagement([(2, [[3, 1, [0: "pass"]], [2, 2, [:]]])]))
    #expect(
      other.retrievalMethods == [
        .other(type: 3, version: 1, options: [0: "pass"]),
        .other(type: 2, version: 2, options: [:]),
      ])
    let nfc = try DeviceEngagement(bytes: engagement([(2, [[1, 1, [0: 255, 1: 256]]])]))
    #expect(
      nfc.retrievalMethods == [
        .nfc(NFCOptions(maxCommandDataLength: 255, maxResponseDataLength: 256))
      ])
    #expect(try DeviceEngagement(bytes: engagement([(0, "1.12")])).version == "1.12")
  }

  @Test("Engagements that are not the CDDL are refused with their code")
  func refusals() throws {
    let key = try keyBytes()
    let ble: (CBOR) -> CBOR = { [[2, 1, $0]] }
    let cases: [([UInt8], MdocProximityErrorCode, String)] = [
      ([0xFF], .malformed, "not CBOR"),
      (CBOREncoder().encode([1, 2]), .malformed, "not a map"),
      (try engagement([(0, nil)]), .malformed, "no version"),
      (try engagement([(0, 1)]), .malformed, "version not text"),
      (try engagement([(0, "2.0")]), .unsupportedVersion, "version 2.0"),
      (try engagement([(0, "1.")]), .unsupportedVersion, "version 1."),
      (try engagement([(0, "1.0a")]), .unsupportedVersion, "version 1.0a"),
      (try engagement([(1, nil)]), .malformed, "no Security"),
      (try engagement([(1, [1])]), .malformed, "Security of one member"),
      (try engagement([(1, [1, key, 0])]), .malformed, "Security of three members"),
      (try engagement([(1, [2, key])]), .unsupportedCipherSuite, "cipher suite 2"),
      (try engagement([(1, ["1", key])]), .malformed, "cipher suite text"),
      (try engagement([(1, [1, key.tagValue ?? .null])]), .malformed, "key not tag 24"),
      (
        try engagement([
          (
            1,
            [
              1,
              .tagged(
                24,
                .byteString(
                  CBOREncoder().encode([1: 2, -1: 1, -2: .byteString([1]), -3: .byteString([2])]))),
            ]
          )
        ]),
        .invalidKey, "key not a point"
      ),
      (
        try engagement([(1, [1, .tagged(24, .byteString(CBOREncoder().encode([1: 1, -1: 6])))])]),
        .invalidKey, "OKP key"
      ),
      (try engagement([(2, [])]), .malformed, "no retrieval methods"),
      (try engagement([(2, [[2, 1]])]), .malformed, "method of two members"),
      (try engagement([(2, ble([0: false, 1: false]))]), .malformed, "no BLE mode"),
      (try engagement([(2, ble([0: true, 1: false]))]), .malformed, "peripheral without UUID"),
      (try engagement([(2, ble([0: false, 1: true]))]), .malformed, "central without UUID"),
      (
        try engagement([(2, ble([0: true, 1: false, 10: .byteString([1])]))]), .malformed,
        "short UUID"
      ),
      (
        try engagement([
          (2, ble([0: true, 1: false, 10: .byteString(Self.uuid), 20: .byteString([1])]))
        ]),
        .malformed, "short address"
      ),
      (try engagement([(2, ble([0: 1, 1: false]))]), .malformed, "mode not a bool"),
      (
        try engagement([(2, ble([1: true, 11: .byteString(Self.uuid)]))]), .malformed,
        "mode 0 missing"
      ),
      (
        try engagement([(2, ble([0: true, 1: false, 10: .byteString(Self.uuid), "x": true]))]),
        .malformed, "text key in BleOptions"
      ),
      (try engagement([(2, [[1, 1, [0: 1]]])]), .malformed, "NfcOptions without 1"),
      (try engagement([(2, [[5, 1, 7]])]), .malformed, "options not a map"),
      (try engagement([(2, [["2", 1, [:]]])]), .malformed, "method type text"),
      (try engagement([(2, [[2, -1, [:]]])]), .malformed, "method version negative"),
      (try engagement([(2, 7)]), .malformed, "methods not an array"),
      (try engagement([(0, "1.1"), (5, 7)]), .malformed, "OriginInfos not an array"),
      (
        try engagement([(0, .textString("1." + String(repeating: "0", count: 15)))]),
        .unsupportedVersion,
        "version of 17 characters"
      ),
      (
        try engagement([(2, ble([0: true, 1: false, 10: .textString("uuid")]))]), .malformed,
        "UUID as text"
      ),
      (try engagement([(0, "1.1"), (5, [["cat": 1]])]), .malformed, "OriginInfo without type"),
      (
        CBOREncoder(mapOrder: .preserved).encode([0: "1.0", 1: [1, key], "x": 1]), .malformed,
        "text key"
      ),
    ]
    for (bytes, expected, what) in cases {
      #expect(code(bytes) == expected, "\(what)")
    }
  }

  @Test("Engagements past 4096 bytes are refused before decoding")
  func size() throws {
    let atLimit = try engagement([(99, .byteString([]))])
    let padding = DeviceEngagement.maxByteCount - atLimit.count
    // A byte string of 256 to 65535 bytes has a 3-byte head instead of 1.
    let exact = try engagement([(99, .byteString([UInt8](repeating: 0, count: padding - 2)))])
    #expect(exact.count == DeviceEngagement.maxByteCount)
    #expect(try DeviceEngagement(bytes: exact).bytes == exact)
    let past = try engagement([(99, .byteString([UInt8](repeating: 0, count: padding - 1)))])
    #expect(code(past) == .tooLarge)
  }

  @Test("mdoc: URIs that are not the scheme and unpadded base64url are refused")
  func uriRefusals() throws {
    let uri = DeviceEngagement(eDeviceKey: try #require(Self.key)).uri
    for (text, expected) in [
      ("", MdocProximityErrorCode.invalidURI), ("mdoc:", .invalidURI),
      ("mdoc" + uri.dropFirst(5), .invalidURI), ("mdoc;" + uri.dropFirst(5), .invalidURI),
      ("https:" + uri.dropFirst(5), .invalidURI), ("xdoc:" + uri.dropFirst(5), .invalidURI),
      (uri + "=", .invalidURI),
      (uri + " ", .invalidURI), (" " + uri, .invalidURI), (uri + "+", .invalidURI),
      (uri + "/", .invalidURI), (uri + "#x", .invalidURI),
      ("mdoc:" + String(repeating: "A", count: DeviceEngagement.maxURILength), .tooLarge),
      ("mdoc:oA", .malformed),
    ] {
      do {
        _ = try DeviceEngagement(uri: text)
        Issue.record("accepted \(text)")
      } catch {
        #expect(error.code == expected, "\(text)")
      }
    }
  }
}
