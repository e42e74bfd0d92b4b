import DCCrypto
import DCX509
import Foundation
import Testing

@testable import DCWalletCLI

/// Issue 12 §6: every command that reads a request, a response or a credential from a file or
/// standard input refuses input past its `InputLimit` before parsing it, and reads standard
/// input in bounded chunks (an endless stream is refused, not buffered). Each path is run at
/// its limit (reaches the parser) and one byte past it (refused, naming the limit).
@Suite("Input size limits of dcwallet")
struct InputLimitBinaryTests {
  /// Runs dcwallet with standard input read from a file (or /dev/zero), output into files, so
  /// no pipe can fill up or break; killed after a timeout.
  static func run(_ cli: DCWallet, _ arguments: [String], stdin: String = "/dev/null") throws
    -> DCWallet.Result
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: DCWallet.binary)
    process.arguments = ["--home", cli.home] + arguments
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "DCWALLET_HOME")
    process.environment = environment
    let outPath = cli.home + "-out-\(UUID().uuidString)"
    let errPath = cli.home + "-err-\(UUID().uuidString)"
    #expect(FileManager.default.createFile(atPath: outPath, contents: nil))
    #expect(FileManager.default.createFile(atPath: errPath, contents: nil))
    process.standardInput = FileHandle(forReadingAtPath: stdin)
    process.standardOutput = FileHandle(forWritingAtPath: outPath)
    process.standardError = FileHandle(forWritingAtPath: errPath)
    try process.run()
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
      process.terminate()
      Issue.record("dcwallet \(arguments) did not finish within 60 s")
    }
    process.waitUntilExit()
    func text(_ path: String) -> String {
      String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }
    return DCWallet.Result(code: process.terminationStatus, out: text(outPath), err: text(errPath))
  }

  /// One input path of one command: how to run it with a file or standard input.
  struct InputPath: Sendable, CustomStringConvertible {
    let name: String
    let limit: InputLimit
    /// The arguments, given the input's file path (nil: the input is on standard input).
    let arguments: @Sendable (_ input: String?, _ support: Support) -> [String]
    /// What the command says about the input when it reaches the parser.
    let parserError: String
    let readsStandardInput: Bool
    var description: String { name }
  }

  /// Files the commands need besides the input.
  struct Support: Sendable {
    let deviceKey: String
    let state: String
    let sealedResponse: String
    /// A certificate (PEM), for the list operator of `trust import-list`.
    let certificate: String
  }

  static let paths: [InputPath] = [
    InputPath(
      name: "respond", limit: .request,
      arguments: { input, _ in
        ["respond", "--origin", "https://shop.example"] + (input.map { ["--request", $0] } ?? [])
      }, parserError: "the request cannot be read", readsStandardInput: true),
    InputPath(
      name: "verifier verify --response", limit: .response,
      arguments: { input, support in
        ["verifier", "verify", "--origin", "https://shop.example", "--state", support.state]
          + (input.map { ["--response", $0] } ?? [])
      }, parserError: "the response is not JSON", readsStandardInput: true),
    InputPath(
      name: "verifier verify --request", limit: .request,
      arguments: { input, support in
        [
          "verifier", "verify", "--origin", "https://shop.example", "--request", input ?? "",
          "--recipient-key", support.deviceKey,
        ]
      }, parserError: "the request cannot be read", readsStandardInput: false),
    InputPath(
      name: "inspect", limit: .inspected, arguments: { input, _ in ["inspect", input ?? ""] },
      parserError: "", readsStandardInput: false),
    InputPath(
      name: "inspect --request", limit: .request,
      arguments: { input, support in
        [
          "inspect", support.sealedResponse, "--key", support.deviceKey, "--request", input ?? "",
          "--origin", "https://shop.example",
        ]
      }, parserError: "the request cannot be read", readsStandardInput: false),
    InputPath(
      name: "import --mdoc", limit: .credential,
      arguments: { input, support in
        ["import", "--mdoc", input ?? "", "--device-key", support.deviceKey]
      }, parserError: "not an ISO 18013-5 IssuerSigned structure", readsStandardInput: false),
    InputPath(
      name: "import --sd-jwt", limit: .credential,
      arguments: { input, support in
        ["import", "--sd-jwt", input ?? "", "--device-key", support.deviceKey]
      }, parserError: "not an SD-JWT", readsStandardInput: false),
    InputPath(
      name: "trust add", limit: .file,
      arguments: { input, _ in ["trust", "add", "--issuer", input ?? ""] },
      parserError: "is not a certificate", readsStandardInput: false),
    InputPath(
      name: "trust import-list", limit: .trustedList,
      arguments: { input, support in
        [
          "trust", "import-list", input ?? "", "--kind", "lote", "--operator-cert",
          support.certificate,
        ]
      }, parserError: "the list is refused", readsStandardInput: false),
    InputPath(
      name: "verifier request --dcql", limit: .request,
      arguments: { input, support in
        [
          "verifier", "request", "--protocol", "openid4vp-v1-unsigned", "--dcql", input ?? "",
          "--out-request", support.state + ".request", "--out-state", support.state + ".state",
        ]
      }, parserError: "is not JSON", readsStandardInput: false),
  ]

  static func support(_ cli: DCWallet) throws -> Support {
    let key = try ECPrivateKey(curve: .p256)
    return Support(
      deviceKey: try cli.file("device.pem", key.pemRepresentation),
      // Verifier state is parsed as JSON before the response is read; `{}` is enough to get
      // there.
      state: try cli.file("state.json", "{}"),
      // An Annex C response as `inspect --key` takes it: it reads --request before opening it.
      sealedResponse: try cli.file("response.json", #"{"response": "AAAA"}"#),
      certificate: try cli.file(
        "operator.pem",
        try CertificateBuilder(
          subject: DistinguishedName(commonName: "Operator"), publicKey: key.publicKey,
          notBefore: Date(), notAfter: Date().addingTimeInterval(86_400)
        ).selfSigned(signer: key).pemString))
  }

  /// Bytes no parser accepts (nor takes for another encoding): `!` repeated. The mdoc path
  /// takes a first byte of a CBOR map as CBOR, so it gets one.
  static func filler(_ count: Int, for path: InputPath) -> [UInt8] {
    var bytes = [UInt8](repeating: 0x21, count: count)
    if path.limit == .credential, path.name.contains("mdoc"), count > 0 { bytes[0] = 0xA1 }
    return bytes
  }

  static func refusal(_ limit: InputLimit) -> String {
    "is larger than \(limit.described), the most dcwallet reads for \(limit.kind)"
  }

  @Test("A file at the limit reaches the parser; one byte more is refused", arguments: paths)
  func fileAtAndPastTheLimit(_ path: InputPath) throws {
    let cli = try DCWallet()
    let support = try Self.support(cli)
    let atLimit = try cli.file("at-limit", Self.filler(path.limit.bytes, for: path))
    let accepted = try Self.run(cli, path.arguments(atLimit, support))
    #expect(!accepted.err.contains("larger than"), "\(accepted.err)")
    if path.parserError.isEmpty {
      // inspect describes what it cannot identify.
      #expect(accepted.code == 0 && !accepted.out.isEmpty, "\(accepted.err)")
    } else {
      #expect(accepted.err.contains(path.parserError), "\(accepted.err)")
    }
    let past = try cli.file("past-limit", Self.filler(path.limit.bytes + 1, for: path))
    let refused = try Self.run(cli, path.arguments(past, support))
    #expect(refused.code == 1)
    #expect(refused.err.contains("\(past) " + Self.refusal(path.limit)), "\(refused.err)")
    #expect(path.parserError.isEmpty || !refused.err.contains(path.parserError))
    #expect(refused.out.isEmpty)
  }

  @Test(
    "Standard input at the limit reaches the parser; one byte more is refused",
    arguments: paths.filter(\.readsStandardInput))
  func standardInputAtAndPastTheLimit(_ path: InputPath) throws {
    let cli = try DCWallet()
    let support = try Self.support(cli)
    let atLimit = try cli.file("at-limit", Self.filler(path.limit.bytes, for: path))
    let accepted = try Self.run(cli, path.arguments(nil, support), stdin: atLimit)
    #expect(!accepted.err.contains("larger than"), "\(accepted.err)")
    #expect(accepted.err.contains(path.parserError), "\(accepted.err)")
    let past = try cli.file("past-limit", Self.filler(path.limit.bytes + 1, for: path))
    let refused = try Self.run(cli, path.arguments(nil, support), stdin: past)
    #expect(refused.code == 1)
    #expect(
      refused.err.contains(
        "dcwallet \(path.name.split(separator: " ")[0]): standard input "
          + Self.refusal(path.limit)),
      "\(refused.err)")
  }

  @Test(
    "An endless standard input is refused after the limit, not read to its end",
    arguments: paths.filter(\.readsStandardInput))
  func endlessStandardInput(_ path: InputPath) throws {
    let cli = try DCWallet()
    let refused = try Self.run(cli, path.arguments(nil, try Self.support(cli)), stdin: "/dev/zero")
    #expect(refused.code == 1)
    #expect(refused.err.contains("standard input " + Self.refusal(path.limit)), "\(refused.err)")
  }

  @Test("An endless file (/dev/zero) is refused after the limit")
  func endlessFile() throws {
    let cli = try DCWallet()
    let refused = try Self.run(
      cli, ["respond", "--origin", "https://shop.example", "--request", "/dev/zero"])
    #expect(refused.code == 1)
    #expect(refused.err.contains("/dev/zero " + Self.refusal(.request)), "\(refused.err)")
  }

  @Test("The limit reads in words with its exact byte count")
  func describedLimits() {
    #expect(InputLimit.request.described == "256 KiB (262144 bytes)")
    #expect(InputLimit.credential.described == "1 MiB (1048576 bytes)")
    #expect(InputLimit.response.described == "2 MiB (2097152 bytes)")
  }
}

/// The console tests use in place of standard input applies the same limit.
@Suite("Input size limit of a captured console")
struct CapturedInputLimitTests {
  @Test func capturedInputAtAndPastTheLimit() throws {
    let limit = InputLimit.request
    let atLimit = Console.capturing(input: [UInt8](repeating: 0x21, count: limit.bytes))
    #expect(try atLimit.readAll(limit: limit).count == limit.bytes)
    let past = Console.capturing(input: [UInt8](repeating: 0x21, count: limit.bytes + 1))
    let refused = #expect(throws: CommandFailure.self) { _ = try past.readAll(limit: limit) }
    #expect(refused?.message == limit.refusal("standard input").message)
  }
}
