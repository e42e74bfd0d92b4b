internal import DCCrypto
import DCEncoding
import DCJSON
internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Android)
  internal import Android
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// The 32-byte key-encryption key in a file of the wallet home, readable only by its owner.
///
/// Created once with `O_EXCL` semantics (written to a private temporary file, then linked into
/// place, so a second process never reads a half-written key); refused when the file is group-
/// or world-accessible, is not owned by this user, or is not a regular file of exactly 32 bytes.
package enum KeyEncryptionKey {
  package static let byteCount = 32

  /// Reads the key at path, creating it first when the file does not exist.
  package static func loadOrCreate(at path: String) throws(WalletStoreError) -> [UInt8] {
    if let key = try load(at: path) { return key }
    try create(at: path)
    guard let key = try load(at: path) else {
      throw WalletStoreError(.fileSystemFailure, "\(path) vanished right after it was created")
    }
    return key
  }

  /// The key at path, or nil when no file exists there.
  static func load(at path: String) throws(WalletStoreError) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    if fd < 0 {
      let code = errno
      if code == ENOENT { return nil }
      // O_NOFOLLOW: a key file reached through a symbolic link is refused, not followed.
      if code == ELOOP { throw WalletStoreError(.insecureKeyFile, "\(path) is a symbolic link") }
      throw WalletStoreError(.fileSystemFailure, "cannot open \(path): \(describe(code))")
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw WalletStoreError(.fileSystemFailure, "cannot stat \(path): \(describe(errno))")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw WalletStoreError(.invalidKeyFile, "\(path) is not a regular file")
    }
    // Checked on the open descriptor, so the file cannot be swapped between check and read.
    guard info.st_mode & 0o077 == 0 else {
      throw WalletStoreError(
        .insecureKeyFile,
        "\(path) has mode \(String(info.st_mode & 0o777, radix: 8)); it must be 600 (chmod 600 \(path))"
      )
    }
    guard info.st_uid == geteuid() else {
      throw WalletStoreError(.insecureKeyFile, "\(path) is owned by another user")
    }
    guard info.st_size == off_t(byteCount) else {
      throw WalletStoreError(
        .invalidKeyFile, "\(path) holds \(info.st_size) bytes; a key-encryption key is \(byteCount)"
      )
    }
    var key = [UInt8](repeating: 0, count: byteCount)
    var filled = 0
    while filled < byteCount {
      let n = key.withUnsafeMutableBytes { buffer in
        buffer.baseAddress.map { read(fd, $0 + filled, byteCount - filled) } ?? -1
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        throw WalletStoreError(.fileSystemFailure, "cannot read \(path): \(describe(errno))")
      }
      filled += n
    }
    return key
  }

  /// Writes a fresh random key to path unless a file is already there.
  static func create(at path: String) throws(WalletStoreError) {
    let temporary = "\(path).\(getpid()).\(Hex.encode(SecureRandom.bytes(count: 8))).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard fd >= 0 else {
      throw WalletStoreError(.fileSystemFailure, "cannot create \(temporary): \(describe(errno))")
    }
    defer { unlink(temporary) }
    let key = SecureRandom.bytes(count: byteCount)
    var written = 0
    while written < byteCount {
      let n = key.withUnsafeBytes { buffer in
        buffer.baseAddress.map { write(fd, $0 + written, byteCount - written) } ?? -1
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        close(fd)
        throw WalletStoreError(.fileSystemFailure, "cannot write \(temporary): \(describe(errno))")
      }
      written += n
    }
    guard fsync(fd) == 0 else {
      close(fd)
      throw WalletStoreError(.fileSystemFailure, "cannot sync \(temporary): \(describe(errno))")
    }
    close(fd)
    // link(2) never replaces an existing file: when two processes race, the first key wins and
    // both read it.
    if link(temporary, path) != 0 && errno != EEXIST {
      throw WalletStoreError(.fileSystemFailure, "cannot create \(path): \(describe(errno))")
    }
  }

  private static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
