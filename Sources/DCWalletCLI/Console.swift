import DCCBOR
import DCWallet
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command writes and reads; tests substitute buffers.
///
/// Everything written with ``out(_:)`` and ``err(_:)`` passes through one filter: control and
/// formatting characters (C0 but the line feed, DEL, C1, the Unicode bidirectional controls) are
/// written as visible escapes (`\u001b`), the way `dcwallet inspect` shows text in diagnostic
/// notation. The CLI prints strings that requesters, issuers and stored rows chose (reader
/// names, namespaces, element identifiers, `vct` values, error reasons, claim values); none of
/// them can move the cursor, erase a line or reorder the screen. JSON written here stays the
/// same JSON: its serializer already escapes C0, and an escaped C1 or bidi character is a valid
/// JSON escape of the same character (RFC 8259 §7). Only ``outBytes(_:)`` writes bytes as they
/// are, for binary output.
package final class Console: @unchecked Sendable {
  private let lock = NSLock()
  private var outBuffer: [String]?
  private var errBuffer: [String]?
  private let input: (@Sendable () -> [UInt8])?

  /// The process's standard streams.
  package static func standard() -> Console { Console(capture: false, input: nil) }

  /// A console that captures output and serves the given input.
  package static func capturing(input: [UInt8] = []) -> Console {
    Console(capture: true, input: { input })
  }

  private init(capture: Bool, input: (@Sendable () -> [UInt8])?) {
    outBuffer = capture ? [] : nil
    errBuffer = capture ? [] : nil
    self.input = input
  }

  /// Writes a line (or several, separated by line feeds) to standard output, escaping control
  /// characters.
  package func out(_ text: String) {
    let text = CBOR.terminalSafe(text, keepingNewlines: true)
    lock.lock()
    defer { lock.unlock() }
    if outBuffer != nil {
      outBuffer?.append(text)
    } else {
      FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
  }

  /// Writes exactly one line to standard output: a line feed inside text is escaped too, so a
  /// value cannot start a line of its own (use for lines built from outside strings).
  package func outLine(_ text: String) {
    out(CBOR.terminalSafe(text))
  }

  /// Writes raw bytes to standard output (binary output such as registry data).
  package func outBytes(_ bytes: [UInt8]) {
    lock.lock()
    defer { lock.unlock() }
    if outBuffer != nil {
      outBuffer?.append(String(decoding: bytes, as: UTF8.self))
    } else {
      FileHandle.standardOutput.write(Data(bytes))
    }
  }

  /// Writes a line (or several, separated by line feeds) to standard error, escaping control
  /// characters.
  package func err(_ text: String) {
    let text = CBOR.terminalSafe(text, keepingNewlines: true)
    lock.lock()
    defer { lock.unlock() }
    if errBuffer != nil {
      errBuffer?.append(text)
    } else {
      FileHandle.standardError.write(Data((text + "\n").utf8))
    }
  }

  /// Writes exactly one line to standard error, a line feed inside text escaped too.
  package func errLine(_ text: String) {
    err(CBOR.terminalSafe(text))
  }

  /// Everything on standard input, read in chunks and refused once it passes limit (see
  /// `InputLimit`), before anything parses it.
  package func readAll(limit: InputLimit) throws -> [UInt8] {
    if let input {
      let bytes = input()
      guard bytes.count <= limit.bytes else { throw limit.refusal("standard input") }
      return bytes
    }
    return try limit.read(FileHandle.standardInput, source: "standard input")
  }

  /// Captured standard output.
  package var capturedOut: String { lock.withLock { (outBuffer ?? []).joined(separator: "\n") } }
  /// Captured standard error.
  package var capturedErr: String { lock.withLock { (errBuffer ?? []).joined(separator: "\n") } }
}

/// A command's failure: exit code 1 with a one-line reason on standard error.
struct CommandFailure: Error, CustomStringConvertible {
  let message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
}

enum Files {
  /// The file at path, read in chunks and refused once it passes limit (see `InputLimit`).
  static func read(_ path: String, limit: InputLimit = .file) throws -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw CommandFailure("cannot read \(path): \(String(cString: strerror(errno)))")
    }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    defer { try? handle.close() }
    var status = stat()
    if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      throw CommandFailure("cannot read \(path): it is a directory")
    }
    return try limit.read(handle, source: path)
  }

  /// path made absolute against the current directory, for path arithmetic (Foundation's path
  /// helpers trap on some relative paths). `~` is a name here: the shell expands it.
  static func absolute(_ path: String) throws -> String {
    guard let absolute = LocalPath.absoluteLiteral(path) else {
      throw CommandFailure("cannot resolve \(path): the current directory is unknown")
    }
    return absolute
  }

  static func write(_ bytes: [UInt8], to path: String, mode: Int? = nil) throws {
    let absolute = try absolute(path)
    var isDirectory: ObjCBool = false
    if path.hasSuffix("/")
      || FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory)
        && isDirectory.boolValue
    {
      throw CommandFailure("cannot write \(path): it is a directory")
    }
    let directory = LocalPath.parent(of: absolute)
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw CommandFailure("cannot write \(path): there is no directory \(directory)")
    }
    do {
      try Data(bytes).write(to: URL(fileURLWithPath: absolute), options: .atomic)
      if let mode {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: absolute)
      }
    } catch {
      throw CommandFailure("cannot write \(path): \(why(error))")
    }
  }

  /// The operating system's reason inside a Foundation file error, else its description.
  static func why(_ error: any Error) -> String {
    let error = error as NSError
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    return error.localizedDescription
  }

  static func text(_ path: String, limit: InputLimit = .file) throws -> String {
    String(decoding: try read(path, limit: limit), as: UTF8.self)
  }
}
