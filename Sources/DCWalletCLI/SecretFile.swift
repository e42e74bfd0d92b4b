import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes files that hold a secret (the verifier state's private key): the file is created with
/// mode 0600 from the start, never readable by others even for a moment (issue 10 §7.10).
package enum SecretFile {
  /// The mode every secret file is created with: owner read and write only.
  package static let mode = 0o600

  /// Creates (or replaces) `path` holding `bytes`, atomically: a new temporary file beside it is created with
  /// `O_CREAT | O_EXCL` and mode 0600, written, flushed, then renamed over `path`.
  ///
  /// - Parameter beforeRename: called with the temporary file's path once it is written and
  ///   before the rename; tests observe the file there.
  package static func create(
    _ bytes: [UInt8], to path: String, beforeRename: (String) -> Void = { _ in }
  ) throws {
    let temporary = path + ".tmp-\(UUID().uuidString.prefix(8))"
    // O_EXCL: never reuse (or follow a link at) an existing path; the mode applies at creation.
    let descriptor = open(
      temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(SecretFile.mode))
    guard descriptor >= 0 else {
      throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))")
    }
    var failure: String?
    // A umask cannot widen the mode, but fchmod makes 0600 exact whatever the umask.
    if fchmod(descriptor, mode_t(SecretFile.mode)) != 0 {
      failure = String(cString: strerror(errno))
    }
    var offset = 0
    while failure == nil, offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        failure = String(cString: strerror(errno))
      } else {
        offset += written
      }
    }
    if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
    close(descriptor)
    if failure == nil {
      beforeRename(temporary)
      if rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
    }
    if let failure {
      unlink(temporary)
      throw CommandFailure("cannot write \(path): \(failure)")
    }
  }
}
