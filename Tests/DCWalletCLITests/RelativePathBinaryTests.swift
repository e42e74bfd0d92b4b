import DCTestSupport
import Foundation
import Testing

/// Issue 32, item 18: `--home .`, `--home h/` and the like crashed with an illegal instruction
/// inside Foundation's path arithmetic. Every user-given path is made absolute first.
@Suite("relative paths (dcwallet binary)")
struct RelativePathBinaryTests {
  /// A scratch directory with `work` (the current directory) and `home` (`$HOME`).
  struct Scratch {
    let root = TestScratch.path("relative-paths")
    var work: String { root + "/work" }
    var home: String { root + "/home" }

    init() throws {
      for directory in [root + "/work", root + "/home"] {
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true)
      }
    }

    func run(_ arguments: [String], walletHome: String? = nil) throws -> ProcessResult {
      var environment = ProcessInfo.processInfo.environment
      environment["DCWALLET_HOME"] = walletHome
      environment["HOME"] = home
      return try runProcess(
        DCWallet.binary, arguments, environment: environment, currentDirectory: work)
    }

    func isDirectory(_ path: String) -> Bool {
      var isDirectory: ObjCBool = false
      return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        && isDirectory.boolValue
    }
  }

  @Test(
    "--home and DCWALLET_HOME alike",
    arguments: [
      (".", "work"), ("..", ""), ("wallet", "work/wallet"), ("./x", "work/x"),
      ("x/", "work/x"), ("~", "home"), ("missing/parent/w", "work/missing/parent/w"),
    ])
  func relativeHome(given: String, expected: String) throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(atPath: scratch.root) }
    let directory = expected.isEmpty ? scratch.root : scratch.root + "/" + expected
    for walletHome in [nil, given] {
      let result = try scratch.run(
        walletHome == nil ? ["--home", given, "list"] : ["list"], walletHome: walletHome)
      #expect(result.status == 0, "\(given): \(result.err)")
      #expect(result.out == "no credentials\n")
      #expect(scratch.isDirectory(directory))
      #expect(FileManager.default.fileExists(atPath: directory + "/wallet.sqlite"))
    }
  }

  @Test func theRootDirectoryIsRefused() throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(atPath: scratch.root) }
    for walletHome in [nil, "/"] {
      let result = try scratch.run(
        walletHome == nil ? ["--home", "/", "list"] : ["list"], walletHome: walletHome)
      #expect(result.status == 1)
      #expect(
        result.err
          == "dcwallet list: wallet home: the root directory cannot be a wallet home\n")
    }
  }

  @Test("a file argument ending in / or naming a directory is refused, not written")
  func directoryNamedAsOutput() throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(atPath: scratch.root) }
    for output in ["out/", ".", "..", "~"] {
      try? FileManager.default.createDirectory(
        atPath: scratch.work + "/~", withIntermediateDirectories: true)
      let result = try scratch.run([
        "--home", "h", "verifier", "request", "--protocol", "org-iso-mdoc", "--doctype",
        "org.iso.18013.5.1.mDL", "--element", "org.iso.18013.5.1/family_name", "--origin",
        "https://shop.example", "--out-request", output, "--out-state", "state.json",
      ])
      #expect(result.status == 1)
      #expect(result.err == "dcwallet verifier: cannot write \(output): it is a directory\n")
      #expect(!FileManager.default.fileExists(atPath: scratch.work + "/out"))
    }
  }

  @Test("an output in a missing directory names the directory")
  func missingOutputDirectory() throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(atPath: scratch.root) }
    let result = try scratch.run([
      "--home", "h", "verifier", "request", "--protocol", "org-iso-mdoc", "--doctype",
      "org.iso.18013.5.1.mDL", "--element", "org.iso.18013.5.1/family_name", "--origin",
      "https://shop.example", "--out-request", "nodir/request.json", "--out-state", "state.json",
    ])
    #expect(result.status == 1)
    #expect(
      result.err
        == "dcwallet verifier: cannot write nodir/request.json: there is no directory "
        + "\(scratch.work)/nodir\n")
  }

  @Test("the issuer's --config and verifier serve's --signer-key may be relative")
  func relativeFileArguments() throws {
    let scratch = try Scratch()
    defer { try? FileManager.default.removeItem(atPath: scratch.root) }
    // The state lives in the directory that holds --config.
    for (config, directory) in [
      ("x/", scratch.work), (".", scratch.root), ("~", scratch.work),
      ("issuer.json", scratch.work), ("sub/issuer.json", scratch.work + "/sub"),
    ] {
      let result = try scratch.run(["--home", "h", "issuer", "credentials", "--config", config])
      #expect(result.status == 0, "\(config): \(result.err)")
      #expect(result.out == "no credentials issued\n")
      #expect(FileManager.default.fileExists(atPath: directory + "/state.sqlite"), "\(config)")
    }
    let result = try scratch.run([
      "--home", "h", "verifier", "serve", "--signer-key", "keys/", "--port", "1",
    ])
    #expect(result.status == 1)
    #expect(result.err == "dcwallet verifier: cannot read keys/: No such file or directory\n")
  }
}
