import DCCrypto
import DCJSON
import DCMdoc
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

@testable import DCWallet

/// A running `dcwallet present`: its first standard output line and its port.
final class PresentProcess: @unchecked Sendable {
  let process = Process()
  let stdin = Pipe()
  let stdout = Pipe()
  let errPath: String
  private(set) var uri = ""
  private(set) var port: UInt16 = 0

  init(_ cli: DCWallet, _ arguments: [String], answer: String = "") throws {
    errPath = cli.home + "-present-\(UUID().uuidString).err"
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "DCWALLET_HOME")
    process.executableURL = URL(fileURLWithPath: DCWallet.binary)
    process.arguments = ["--home", cli.home, "present", "--listen", "127.0.0.1:0"] + arguments
    process.environment = environment
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = FileHandle(forWritingAtPath: errPath)
    try process.run()
    stdin.fileHandleForWriting.write(Data(answer.utf8))
    try stdin.fileHandleForWriting.close()
    // The first line of standard output is the URI; reading stops at end of file.
    var line = Data()
    while !line.contains(0x0a) {
      let chunk = stdout.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    uri = String(decoding: line, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    // The port, from the "listening on HOST:PORT" line on standard error (at most 10 s).
    for _ in 0..<200 {
      if let text = try? String(contentsOfFile: errPath, encoding: .utf8),
        let range = text.range(of: "listening on 127.0.0.1:")
      {
        let digits = text[range.upperBound...].prefix { $0.isNumber }
        if let port = UInt16(digits) {
          self.port = port
          break
        }
      }
      usleep(50_000)
    }
  }

  /// Waits at most `seconds` for the exit; kills it past that.
  func finish(seconds: Int = 30) -> (code: Int32, err: String) {
    for _ in 0..<(seconds * 20) where process.isRunning { usleep(50_000) }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    return (process.terminationStatus, err)
  }
}

@Suite("dcwallet present and read (ISO 18013-5 over loopback)", .serialized)
struct InPersonBinaryTests {
  static let mdl = "org.iso.18013.5.1.mDL"

  func read(_ f: CLIFixture, _ present: PresentProcess, _ extra: [String]) throws -> DCWallet.Result
  {
    try f.cli.run(
      [
        "read", "--engagement", present.uri, "--connect", "127.0.0.1:\(present.port)",
        "--doctype", Self.mdl, "--element", "org.iso.18013.5.1/family_name", "--element",
        "org.iso.18013.5.1/age_over_18", "--issuer-anchor", f.iacaPath,
      ] + extra)
  }

  @Test("deviceSignature, trusted reader, --json, --qr: every check passes and both exit 0")
  func signatureJSON() throws {
    let f = try CLIFixture()
    let present = try PresentProcess(f.cli, ["--qr"])
    #expect(present.uri.hasPrefix("mdoc:"))
    #expect(present.port != 0)
    let read = try read(
      f, present, ["--reader-key", f.readerKeyPath, "--reader-cert", f.readerCertPath, "--json"])
    #expect(read.code == 0, "\(read.err)")
    let json = try JSONValue(parsing: Array(read.out.utf8))
    #expect(json["verified"]?.bool == true)
    let elements = json["documents"]?.array?.first?["elements"]
    #expect(elements?["org.iso.18013.5.1/family_name"] != nil)
    #expect(
      json["checks"]?.array?.contains {
        $0["detail"]?.string?.hasPrefix("device signature") == true
      }
        == true)
    let exit = present.finish()
    #expect(exit.code == 0, "\(exit.err)")
    // The QR code on standard error: half blocks, framed by the quiet zone's full blocks.
    #expect(exit.err.hasPrefix("\u{2588}\u{2588}\u{2588}\u{2588}"))
    #expect(exit.err.contains("\u{2580}") && exit.err.contains("\u{2584}"))
  }

  @Test("--device-mac, no reader authentication, only one element disclosed: text report")
  func macText() throws {
    let f = try CLIFixture()
    let present = try PresentProcess(
      f.cli, ["--device-mac", "--disclose", "org.iso.18013.5.1/age_over_18"])
    let read = try read(f, present, [])
    #expect(read.code == 0, "\(read.err)")
    #expect(read.out.contains("org.iso.18013.5.1/age_over_18: yes"))
    // family_name was requested and not disclosed: reported as such, with no value.
    #expect(
      read.out.split(separator: "\n").filter { $0.contains("family_name") }
        == [
          "  org.iso.18013.5.1/family_name: not returned (requested)",
          "ok  disclosure org.iso.18013.5.1.mDL: 1 element(s), all requested; not returned: "
            + "org.iso.18013.5.1/family_name",
        ])
    #expect(read.out.contains("deviceMac over this session verified"))
    #expect(present.finish().code == 0)
  }

  @Test("--require-trusted-reader refuses an unauthenticated reader: read exits 1, present exits 1")
  func refusal() throws {
    let f = try CLIFixture()
    let present = try PresentProcess(f.cli, ["--require-trusted-reader"])
    let read = try read(f, present, [])
    #expect(read.code == 1)
    #expect(
      read.err
        == "dcwallet read: verification failed: the response opened but its DeviceResponse has "
        + "status 10 (general error) and nothing is verified\n")
    let exit = present.finish()
    #expect(exit.code == 1)
    #expect(exit.err.contains("dcwallet present:"), "\(exit.err)")
  }

  @Test("an untrusted but validly signed reader is answered without --require-trusted-reader only")
  func untrustedReader() throws {
    let f = try CLIFixture()
    let key = try ECPrivateKey(curve: .p256)
    let certificate = try CertificateBuilder.reader(
      commonName: "Stranger", publicKey: key.publicKey, notBefore: Date().addingTimeInterval(-3600),
      notAfter: Date().addingTimeInterval(86_400)
    ).selfSigned(signer: key)
    let keyPath = try f.cli.file("stranger-key.pem", key.pemRepresentation)
    let certPath = try f.cli.file("stranger.pem", certificate.pemString)
    let open = try PresentProcess(f.cli, [])
    let answered = try read(f, open, ["--reader-key", keyPath, "--reader-cert", certPath])
    #expect(answered.code == 0, "\(answered.err)")
    #expect(open.finish().code == 0)
    let strict = try PresentProcess(f.cli, ["--require-trusted-reader"])
    let refused = try read(f, strict, ["--reader-key", keyPath, "--reader-cert", certPath])
    #expect(refused.code == 1)
    #expect(strict.finish().code == 1)
  }

  @Test("--credential naming an unknown or a revoked credential: present says which and why")
  func chosenCredentialRefused() async throws {
    let f = try CLIFixture()
    let device = try ECPrivateKey(curve: .p256)
    let mdoc = try f.pki.issue(deviceKey: device.publicKey)
    let other = try f.cli.run([
      "import", "--mdoc", try f.cli.file("mdl2.cbor", mdoc.bytes), "--device-key",
      try f.cli.file("device2.pem", device.pemRepresentation), "--id", "mdl2",
    ])
    #expect(other.code == 0, "\(other.err)")
    let store = try Wallet(home: WalletHome(directory: f.cli.home)).store
    try await store.setLastKnownStatus(
      CredentialStatusRecord(
        outcome: .invalid, checkedAt: Date(timeIntervalSince1970: 1_780_000_000)),
      forCredential: "mdl")
    for (id, reason) in [
      ("nosuch", "no credential nosuch (see 'dcwallet list')"),
      (
        "mdl",
        "credential mdl is revoked: its status list said INVALID when checked at "
          + "2026-05-28T20:26:40Z; it is not presented"
      ),
    ] {
      let present = try PresentProcess(f.cli, ["--credential", id])
      #expect(try read(f, present, []).code == 1)
      let exit = present.finish()
      #expect(exit.code == 1)
      #expect(exit.err.hasSuffix("dcwallet present: \(reason)\n"), "\(exit.err)")
    }
  }

  @Test("--interactive: a 'n' answer is a refusal sent to the reader")
  func interactiveDecline() throws {
    let f = try CLIFixture()
    let present = try PresentProcess(f.cli, ["--interactive"], answer: "n\n")
    let read = try read(f, present, ["--json"])
    #expect(read.code == 1)
    #expect(read.out.contains("\"verified\":false"))
    let exit = present.finish()
    #expect(exit.code == 1)
    #expect(exit.err.contains("declined"))
    // The consent screen names the reader in person, never a made-up web origin.
    #expect(exit.err.contains("a reader in person asks for credentials"))
    #expect(!exit.err.contains("https://"))
  }

  @Test("usage errors exit 2")
  func usage() throws {
    let cli = try DCWallet()
    #expect(
      try cli.run([
        "read", "--engagement", "mdoc:xx", "--connect", "127.0.0.1:1", "--doctype", Self.mdl,
        "--element", "a/b", "--reader-cert", "reader.pem",
      ]).code == 2)
    #expect(try cli.run(["present"]).code == 2)
    #expect(try cli.run(["present", "--listen", "nowhere"]).code == 2)
    #expect(
      try cli.run([
        "read", "--engagement", "mdoc:xx", "--connect", "127.0.0.1", "--doctype", Self.mdl,
        "--element", "a/b",
      ]).code == 2)
    #expect(
      try cli.run([
        "read", "--engagement", "mdoc:xx", "--connect", "127.0.0.1:1", "--doctype", Self.mdl,
        "--element", "nonamespace",
      ]).code == 2)
  }

  @Test("read refuses an engagement that is not an mdoc: URI before connecting")
  func badEngagement() throws {
    let cli = try DCWallet()
    let result = try cli.run([
      "read", "--engagement", "https://example.com", "--connect", "127.0.0.1:1", "--doctype",
      Self.mdl, "--element", "a/b",
    ])
    #expect(result.code == 1)
    #expect(result.err.contains("--engagement"))
  }

  @Test("demo: the in-person step runs over loopback and verifies a deviceMac")
  func demoStep() throws {
    let result = try DCWallet().run(["demo"])
    #expect(result.code == 0, "\(result.err)")
    let step = try #require(result.out.range(of: "== 16. In person (ISO 18013-5)"))
    let rest = result.out[step.upperBound...]
    #expect(rest.contains("the wallet shows mdoc:"))
    #expect(rest.contains("deviceMac over this session verified"))
    #expect(rest.contains("the wallet answered 1 request(s)"))
  }
}
