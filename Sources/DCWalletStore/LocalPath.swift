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

/// Local file-system paths made absolute and normal by string arithmetic alone.
///
/// Every path a user gives (a wallet home, a file next to another) goes through
/// this type's absolute-path function before any arithmetic on it: Foundation's
/// `NSString.deletingLastPathComponent` traps on relative paths such as `.`, `x/` and `~` on
/// Linux (issue 32, item 18), so nothing here calls Foundation's path helpers.
package enum LocalPath {
  /// `path` made absolute and normal, or nil when it needs a directory that is not absolute.
  ///
  /// `~` and `~/…` are under home; any other relative path (`.`, `..`, `x`, `./x`, `x/`) is under
  /// currentDirectory. In the result, empty and `.` components are gone, `..` removes the
  /// component before it (never going above `/`), and there is no trailing `/` except in `/`.
  /// `..` is taken lexically, as `cd -L` does: `a/link/..` is `a`.
  package static func absolute(_ path: String, currentDirectory: String, home: String) -> String? {
    let base: String
    let rest: Substring
    if path == "~" || path.hasPrefix("~/") {
      base = home
      rest = path.dropFirst()
    } else if path.hasPrefix("/") {
      base = "/"
      rest = Substring(path)
    } else {
      base = currentDirectory
      rest = Substring(path)
    }
    guard base.hasPrefix("/") else { return nil }
    var components: [Substring] = []
    for component in (base + "/" + rest).split(separator: "/", omittingEmptySubsequences: true) {
      switch component {
      case ".": continue
      case "..": _ = components.popLast()
      default: components.append(component)
      }
    }
    return "/" + components.joined(separator: "/")
  }

  /// The directory that holds an absolute, normal path (one ``absolute(_:currentDirectory:home:)``
  /// returned); `/` for `/` and for a name directly under it.
  package static func parent(of absolutePath: String) -> String {
    guard let slash = absolutePath.lastIndex(of: "/"), slash != absolutePath.startIndex else {
      return "/"
    }
    return String(absolutePath[..<slash])
  }

  /// name inside directory, with exactly one `/` between them.
  package static func appending(_ name: String, to directory: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }

  /// The process's current directory (`getcwd`), or nil when it is unknown (removed, too long).
  package static var currentDirectory: String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return nil }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    let path = String(decoding: bytes, as: UTF8.self)
    return path.hasPrefix("/") ? path : nil
  }

  /// The user's home directory: `$HOME` from environment when set, else the account's.
  package static func home(environment: [String: String]) -> String {
    environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
  }

  /// `path` made absolute against the process's current directory, with `~` taken as a plain
  /// name (for paths a shell has already expanded, or that never were the user's home).
  package static func absoluteLiteral(_ path: String) -> String? {
    absolute(path.hasPrefix("/") ? path : "./" + path, environment: [:])
  }

  /// `path` made absolute against the process's current directory and environment's home.
  package static func absolute(_ path: String, environment: [String: String]) -> String? {
    absolute(path, currentDirectory: currentDirectory ?? "", home: home(environment: environment))
  }
}
