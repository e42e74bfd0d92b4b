public import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Android)
  internal import Android
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// The directory that holds a wallet's files: the database and the key-encryption key.
public struct WalletHome: Sendable, Hashable {
  /// The environment variable that names the wallet home when no directory is given.
  package static let environmentVariable = "DCWALLET_HOME"

  /// The directory.
  public let directory: String

  /// The SQLite database, `wallet.sqlite`.
  public var databasePath: String { directory + "/wallet.sqlite" }

  /// The key-encryption key file of `SoftwareKeyStore`, `kek`.
  package var keyEncryptionKeyPath: String { directory + "/kek" }

  /// Names a wallet home without touching the file system.
  public init(directory: String) {
    self.directory = directory
  }

  /// Finds the wallet home — explicit (the caller's choice), else `$DCWALLET_HOME`, else
  /// `~/.dcwallet` — and creates it, mode 0700, when it does not exist.
  ///
  /// An existing directory is used as it is; the key file's own mode is what
  /// `SoftwareKeyStore` checks.
  public static func resolve(
    explicit: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(WalletStoreError) -> WalletHome {
    let directory: String
    if let explicit, !explicit.isEmpty {
      directory = explicit
    } else if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty {
      directory = fromEnvironment
    } else {
      let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
      directory = home + "/.dcwallet"
    }
    let wallet = WalletHome(directory: directory)
    try wallet.create()
    return wallet
  }

  /// Creates the directory (mode 0700) and its missing parents.
  public func create() throws(WalletStoreError) {
    let parent = (directory as NSString).deletingLastPathComponent
    if !parent.isEmpty {
      do {
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
      } catch {
        throw WalletStoreError(.fileSystemFailure, "cannot create \(parent): \(error)")
      }
    }
    // mkdir with the mode directly: the directory is never briefly open to others.
    if mkdir(directory, 0o700) != 0 {
      let code = errno
      var isDirectory: ObjCBool = false
      guard code == EEXIST,
        FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory),
        isDirectory.boolValue
      else {
        throw WalletStoreError(
          .fileSystemFailure, "cannot create \(directory): \(String(cString: strerror(code)))")
      }
    }
  }
}
