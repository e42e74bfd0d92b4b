import DCCrypto
import DCEncoding
import DCJSON
import DCStatusList
import DCTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// `dcwallet inspect` on Status List Tokens (issue 15): both forms, every entry under `--json`,
/// in plain output each entry of a short list and a summary of a long one, a bomb refused.
@Suite("dcwallet inspect: status list tokens")
struct StatusListInspectBinaryTests {
  static func token(_ format: StatusListToken.Format, pki: TestPKI, list: StatusList) throws
    -> StatusListToken
  {
    try StatusListToken(
      format: format, subject: "https://issuer.example/statuslists/1",
      issuer: "https://issuer.example", issuedAt: pki.clock, expiresAt: pki.clock + 86_400,
      timeToLive: 3600, statusList: list, certificateChain: [pki.documentSigner.derBytes],
      signer: pki.dsKey)
  }

  static func sampleList() throws -> StatusList {
    var list = StatusList(bits: .two, count: 12)
    try list.setStatus(.invalid, at: 0)
    try list.setStatus(.suspended, at: 1)
    try list.setStatus(.applicationSpecific(3), at: 11)
    return list
  }

  @Test(arguments: StatusListToken.Format.allCases)
  func jsonListsEveryEntry(format: StatusListToken.Format) throws {
    let cli = try DCWallet()
    let pki = try TestPKI()
    let token = try Self.token(format, pki: pki, list: try Self.sampleList())
    var inputs = [try cli.file("token-\(format)", token.encoded)]
    if format == .cwt {
      inputs.append(try cli.file("token.hex", Hex.encode(token.encoded)))
      inputs.append(try cli.file("token.b64", Base64URL.encode(token.encoded)))
    }
    for path in inputs {
      let result = try cli.run(["inspect", "--json", path])
      #expect(result.code == 0, "\(result.err)")
      let json = try JSONValue(parsing: result.out, limits: JSONLimits(maxLength: 64 << 20))
      #expect(json["format"]?.string == format.rawValue)
      #expect(json["sub"]?.string == "https://issuer.example/statuslists/1")
      #expect(json["bits"]?.int == 2)
      #expect(json["size"]?.int == 12)
      #expect(json["ttl"]?.int == 3600)
      let statuses = try #require(json["statuses"]?.array)
      #expect(statuses.count == 12)
      #expect(statuses[0] == "invalid")
      #expect(statuses[1] == "suspended")
      #expect(statuses[2] == "valid")
      #expect(statuses[11] == 3)
    }
  }

  @Test func theDraftsLongListHasAMillionEntries() throws {
    let cli = try DCWallet()
    let pki = try TestPKI()
    var list = StatusList(bits: .one, count: 1 << 20)
    try list.setStatus(.invalid, at: 1993)
    let token = try Self.token(.jwt, pki: pki, list: list)
    let result = try cli.run(["inspect", "--json", try cli.file("long.jwt", token.encoded)])
    #expect(result.code == 0, "\(result.err)")
    let json = try JSONValue(parsing: result.out, limits: JSONLimits(maxLength: 64 << 20))
    let statuses = try #require(json["statuses"]?.array)
    #expect(statuses.count == 1 << 20)
    #expect(statuses[1993] == "invalid")
    #expect(statuses.filter { $0 == "invalid" }.count == 1)
  }

  @Test func plainOutputSummarises() throws {
    let cli = try DCWallet()
    let pki = try TestPKI()
    let token = try Self.token(.cwt, pki: pki, list: try Self.sampleList())
    let result = try cli.run(["inspect", try cli.file("token.cwt", token.encoded)])
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out.contains("Status List Token (CWT"))
    #expect(result.out.contains("sub: https://issuer.example/statuslists/1"))
    #expect(result.out.contains("12 entries of 2 bit(s)"))
    #expect(result.out.contains("ttl: 3600 s"))
    #expect(result.out.contains("statuses: valid 9, invalid 1, suspended 1, 3 1"))
    // Up to 64 entries, each is listed by index (issue 32, item 14).
    let words = [0: "invalid", 1: "suspended", 11: "3"]
    let entries = (0..<12).map { "    \($0): " + (words[$0] ?? "valid") }
    let listed = (["  entries:"] + entries).joined(separator: "\n")
    #expect(result.out.contains(listed), "\(result.out)")
    // Dates as UTC beside the epoch seconds.
    let iat = Int64(pki.clock.timeIntervalSince1970)
    let date = ISO8601DateFormatter().string(from: pki.clock)
    #expect(result.out.contains("  iat: \(date) (\(iat))"), "\(result.out)")
  }

  @Test("plain output lists 64 entries one by one and summarises 65", arguments: [64, 65])
  func plainOutputListsShortLists(count: Int) throws {
    let cli = try DCWallet()
    let pki = try TestPKI()
    var list = StatusList(bits: .eight, count: count)
    try list.setStatus(.invalid, at: count - 1)
    let token = try Self.token(.jwt, pki: pki, list: list)
    let result = try cli.run(["inspect", try cli.file("token.jwt", token.encoded)])
    #expect(result.code == 0, "\(result.err)")
    let lines = result.out.split(separator: "\n").map(String.init)
    #expect(lines.contains("  statuses: valid \(count - 1), invalid 1"))
    if count == 64 {
      #expect(lines.filter { $0.hasPrefix("    ") }.count == 64)
      #expect(lines.contains("    62: valid"))
      #expect(lines.last == "    63: invalid")
    } else {
      #expect(!lines.contains { $0.hasPrefix("    ") })
      #expect(lines.last == "  entries: 65, too many to list (--json lists every one)")
    }
  }

  @Test(arguments: StatusListToken.Format.allCases)
  func aBombIsRefusedWithAClearError(format: StatusListToken.Format) throws {
    let cli = try DCWallet()
    let pki = try TestPKI()
    let bomb = StatusList(bits: .one, bytes: [UInt8](repeating: 0, count: 32 << 20))
    let token = try Self.token(format, pki: pki, list: bomb)
    let result = try cli.run(["inspect", "--json", try cli.file("bomb", token.encoded)])
    #expect(result.code == 1)
    #expect(result.out.isEmpty)
    #expect(result.err.contains("exceeds"), "\(result.err)")
    #expect(result.err.contains("16 MiB"), "\(result.err)")
  }

  @Test func jsonIsOnlyForStatusListTokens() throws {
    let cli = try DCWallet()
    let result = try cli.run(["inspect", "--json", try cli.file("x.json", #"{"a":1}"#)])
    #expect(result.code != 0)
    #expect(result.err.contains("Status List Token"))
  }
}
