import Foundation

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
  /// The directory is made absolute first:
  /// a relative one is under currentDirectory, `~` and `~/…` under `$HOME`. An existing directory
  /// is used as it is; the key file's own mode is what `SoftwareKeyStore` checks.
  /// - Throws: `WalletStoreError` with `.invalidArgument` for the root directory (the wallet's
  ///   files would lie loose in `/`), `.fileSystemFailure` when a relative path meets an unknown
  ///   current directory or the directory cannot be created.
  package static func resolve(
    explicit: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    currentDirectory: String? = LocalPath.currentDirectory
  ) throws(WalletStoreError) -> WalletHome {
    let given: String
    if let explicit, !explicit.isEmpty {
      given = explicit
    } else if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty {
      given = fromEnvironment
    } else {
      given = "~/.dcwallet"
    }
    let home = LocalPath.home(environment: environment)
    guard
      let directory = LocalPath.absolute(
        given, currentDirectory: currentDirectory ?? "", home: home)
    else {
      let tilde = given == "~" || given.hasPrefix("~/")
      throw WalletStoreError(
        .fileSystemFailure,
        tilde
          ? "\(given) is under $HOME, which is not an absolute path (\(home))"
          : "\(given) is relative and the current directory is unknown")
    }
    guard directory != "/" else {
      throw WalletStoreError(.invalidArgument, "the root directory cannot be a wallet home")
    }
    let wallet = WalletHome(directory: directory)
    try wallet.create()
    return wallet
  }

  /// Creates the directory (mode 0700) and its missing parents.
  ///
  /// A relative directory (`~` included, as the store's files will be opened) is under the
  /// process's current directory.
  package func create() throws(WalletStoreError) {
    guard let absolute = LocalPath.absoluteLiteral(directory) else {
      throw WalletStoreError(
        .fileSystemFailure, "\(directory) is relative and the current directory is unknown")
    }
    try Self.makeDirectory(LocalPath.parent(of: absolute), mode: 0o777, parents: true)
    // mkdir with the mode directly: the directory is never briefly open to others.
    try Self.makeDirectory(absolute, mode: 0o700, parents: false)
  }

  /// mkdir(path, mode), and first each missing parent when parents is true; an existing
  /// directory is fine. path is absolute and normal.
  static func makeDirectory(_ path: String, mode: mode_t, parents: Bool)
    throws(WalletStoreError)
  {
    if path == "/" { return }
    if parents { try makeDirectory(LocalPath.parent(of: path), mode: mode, parents: true) }
    if mkdir(path, mode) != 0 {
      let code = errno
      var isDirectory: ObjCBool = false
      guard code == EEXIST,
        FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
        isDirectory.boolValue
      else {
        let why =
          code == EEXIST ? "it exists and is not a directory" : String(cString: strerror(code))
        throw WalletStoreError(.fileSystemFailure, "cannot create \(path): \(why)")
      }
    }
  }
}
