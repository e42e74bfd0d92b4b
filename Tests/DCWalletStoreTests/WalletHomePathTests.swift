import DCWalletStoreTestSupport
import Foundation
import Testing

@testable import DCWalletStore

/// Issue 32, item 18: relative wallet homes crashed in Foundation's path arithmetic.
@Suite("WalletHome paths")
struct WalletHomePathTests {
  @Test(
    "a path is made absolute and normal by string arithmetic",
    arguments: [
      (".", "/work/here"), ("..", "/work"), ("wallet", "/work/here/wallet"),
      ("./x", "/work/here/x"), ("x/", "/work/here/x"), ("~", "/home/me"),
      ("~/w", "/home/me/w"), ("/", "/"), ("a//b/./c/../d/", "/work/here/a/b/d"),
      ("../../../..", "/"), ("~user", "/work/here/~user"), ("/abs/./x/", "/abs/x"),
      ("", "/work/here"),
    ])
  func absolute(given: String, expected: String) {
    #expect(
      LocalPath.absolute(given, currentDirectory: "/work/here", home: "/home/me") == expected)
  }

  @Test func aRelativePathNeedsAnAbsoluteCurrentDirectory() {
    #expect(LocalPath.absolute("x", currentDirectory: "", home: "/home/me") == nil)
    #expect(LocalPath.absolute("~", currentDirectory: "/w", home: "relative") == nil)
    #expect(LocalPath.absolute("/x", currentDirectory: "", home: "") == "/x")
  }

  @Test func parentAndAppending() {
    #expect(LocalPath.parent(of: "/a/b/c") == "/a/b")
    #expect(LocalPath.parent(of: "/a") == "/")
    #expect(LocalPath.parent(of: "/") == "/")
    #expect(LocalPath.appending("f", to: "/") == "/f")
    #expect(LocalPath.appending("f", to: "/a") == "/a/f")
  }

  @Test(
    "--home and DCWALLET_HOME alike: relative homes are created under the current directory",
    arguments: [
      (".", "work"), ("..", ""), ("wallet", "work/wallet"), ("./x", "work/x"),
      ("x/", "work/x"), ("~", "home"), ("~/.w", "home/.w"), ("m/i/s/s", "work/m/i/s/s"),
    ])
  func relativeHomes(given: String, expected: String) throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let work = dir.path + "/work"
    let userHome = dir.path + "/home"
    for directory in [work, userHome] {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    let want = expected.isEmpty ? dir.path : dir.path + "/" + expected
    let explicit = try WalletHome.resolve(
      explicit: given, environment: ["HOME": userHome], currentDirectory: work)
    let fromEnvironment = try WalletHome.resolve(
      explicit: nil, environment: ["DCWALLET_HOME": given, "HOME": userHome],
      currentDirectory: work)
    for home in [explicit, fromEnvironment] {
      #expect(home.directory == want)
      #expect(home.databasePath == want + "/wallet.sqlite")
      var isDirectory: ObjCBool = false
      #expect(FileManager.default.fileExists(atPath: want, isDirectory: &isDirectory))
      #expect(isDirectory.boolValue)
    }
  }

  @Test func theRootDirectoryIsNoWalletHome() throws {
    for environment in [[:], ["DCWALLET_HOME": "/"]] {
      let explicit: String? = environment.isEmpty ? "/" : nil
      let error = #expect(throws: WalletStoreError.self) {
        try WalletHome.resolve(explicit: explicit, environment: environment)
      }
      #expect(error?.code == .invalidArgument)
    }
  }

  @Test func aRelativeHomeWithAnUnknownCurrentDirectoryIsRefused() {
    let error = #expect(throws: WalletStoreError.self) {
      try WalletHome.resolve(explicit: "wallet", environment: [:], currentDirectory: nil)
    }
    #expect(error?.code == .fileSystemFailure)
    #expect(error?.reason == "wallet is relative and the current directory is unknown")
    // The default home under a HOME that is not absolute says so.
    let underHome = #expect(throws: WalletStoreError.self) {
      try WalletHome.resolve(environment: ["HOME": "relative"], currentDirectory: "/tmp")
    }
    #expect(underHome?.code == .fileSystemFailure)
    #expect(
      underHome?.reason == "~/.dcwallet is under $HOME, which is not an absolute path (relative)")
  }

  @Test func aFileInTheWayIsNamedWithItsReason() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    #expect(FileManager.default.createFile(atPath: dir.path + "/file", contents: Data()))
    let error = #expect(throws: WalletStoreError.self) {
      try WalletHome.resolve(
        explicit: "file/home", environment: [:], currentDirectory: dir.path)
    }
    #expect(error?.code == .fileSystemFailure)
    #expect(error?.reason == "cannot create \(dir.path)/file: it exists and is not a directory")
  }

  @Test func aStorePathWithDotComponentsIsCreated() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    // An absolute path through `.` and `..` components needs no Foundation arithmetic.
    let path = dir.path + "/a/./b/../c/wallet.sqlite"
    _ = try WalletStore(path: path)
    #expect(FileManager.default.fileExists(atPath: dir.path + "/a/c/wallet.sqlite"))
  }
}
