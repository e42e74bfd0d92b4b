import DCCBOR
import DCEncoding
import DCJOSE
import DCJSON
import DCStatusList
import DCTestSupport
import Foundation
import Testing

/// The draft's own examples (Vectors/SOURCE.md) decode to the published statuses.
@Suite struct DraftVectorTests {
  static func vectors() throws -> JSONValue {
    try JSONValue(
      parsing: try VectorFile.bytes("token-status-list-draft-examples", in: .module),
      limits: JSONLimits(maxDepth: 16, maxLength: 16 << 20))
  }

  static func exampleKey() throws -> JWK {
    try JWK(json: try #require(try vectors()["example_key"]))
  }

  @Test(arguments: ["1bit-16", "2bit-12", "1bit-long", "2bit-long", "4bit-long", "8bit-long"])
  func listsDecodeToThePublishedStatuses(name: String) throws {
    let lists = try #require(try Self.vectors()["lists"]?.array)
    let vector = try #require(lists.first { $0["name"]?.string == name })
    let bits = try StatusList.bits(try #require(vector["bits"]?.int))
    let entries = try #require(vector["entries"]?.int)
    // JSON form: base64url `lst`.
    let fromJSON = try StatusList(
      bits: bits, compressed: try Base64URL.decode(try #require(vector["lst"]?.string)))
    // CBOR form: `{bits, lst: bstr}`.
    let cbor = try CBOR.decode(hexBytes(try #require(vector["cbor_hex"]?.string)))
    let fromCBOR = try StatusList(
      bits: try StatusList.bits(try #require(cbor["bits"]?.int)),
      compressed: try #require(cbor["lst"]?.bytes))
    #expect(fromJSON == fromCBOR)
    #expect(fromJSON.count == entries)
    var nonzero: [Int: UInt8] = [:]
    for (key, value) in try #require(vector["expected_nonzero"]?.object) {
      nonzero[try #require(Int(key))] = UInt8(try #require(value.int))
    }
    for (index, raw) in nonzero {
      #expect(try fromJSON.status(at: index).rawValue == raw, "entry \(index)")
    }
    for zero in try #require(vector["listed_zero"]?.array) {
      #expect(try fromJSON.status(at: try #require(zero.int)) == .valid)
    }
    // Every other entry is VALID: the counts add up.
    let counts = fromJSON.counts
    #expect(counts[0, default: 0] == entries - nonzero.values.filter { $0 != 0 }.count)
  }

  @Test func shortListsReadEveryEntry() throws {
    let one = try StatusList(bits: .one, compressed: try Base64URL.decode("eNrbuRgAAhcBXQ"))
    #expect(
      one.statuses.map(\.rawValue) == [1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1])
    let two = try StatusList(bits: .two, compressed: try Base64URL.decode("eNo76fITAAPfAgc"))
    #expect(two.statuses.map(\.rawValue) == [1, 2, 0, 3, 0, 1, 0, 1, 1, 2, 3, 3])
    #expect(two.statuses[1] == .suspended)
    #expect(two.statuses[3] == .applicationSpecific(3))
  }

  @Test func jwtExampleReadsAndVerifies() throws {
    let vector = try #require(try Self.vectors()["status_list_jwt"])
    let token = try StatusListToken(jwt: try #require(vector["token"]?.string))
    #expect(token.format == .jwt)
    #expect(token.subject == "https://example.com/statuslists/1")
    #expect(token.issuer == "https://example.com")
    #expect(token.issuedAt == Date(timeIntervalSince1970: 1_686_920_170))
    #expect(token.expiresAt == Date(timeIntervalSince1970: 2_291_720_170))
    #expect(token.timeToLive == 43200)
    #expect(token.statusList.bits == .one)
    #expect(try token.statusList.status(at: 0) == .invalid)
    #expect(try token.statusList.status(at: 1) == .valid)
    try token.verifySignature(publicKey: try Self.exampleKey().publicKey())
  }

  @Test func cwtExampleReadsAndVerifies() throws {
    let vector = try #require(try Self.vectors()["status_list_cwt"])
    let token = try StatusListToken(bytes: hexBytes(try #require(vector["hex"]?.string)))
    #expect(token.format == .cwt)
    #expect(token.subject == "https://example.com/statuslists/1")
    #expect(token.issuedAt == Date(timeIntervalSince1970: 1_686_920_170))
    #expect(token.expiresAt == Date(timeIntervalSince1970: 2_291_720_170))
    #expect(token.timeToLive == 43200)
    #expect(token.statusList.count == 16)
    #expect(try token.statusList.status(at: 3) == .invalid)
    try token.verifySignature(publicKey: try Self.exampleKey().publicKey())
  }

  @Test func referencedTokenCWTStatusClaimReads() throws {
    let vector = try #require(try Self.vectors()["referenced_token_cwt"])
    let sign1 = try CBOR.decode(hexBytes(try #require(vector["hex"]?.string)))
    let payload = try #require(sign1.tagValue?.array?[2].bytes)
    let claims = try #require(try CBOR.decode(payload).map)
    let status = try ReferencedStatus.cwt(claims: claims)
    #expect(
      status == .statusList(StatusReference(index: 0, uri: "https://example.com/statuslists/1")))
  }
}
