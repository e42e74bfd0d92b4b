/// A module's error codes: an extensible set of values rather than an enum, so that a new failure
/// kind breaks no client, and the name its errors carry in descriptions.
///
/// Each module declares one code type (a struct of `static let` values) and names its error as
/// `DCError<ThatCode>` through a typealias (`CBORError`, `MdocError`, ...).
public protocol DCErrorCode: Hashable, Sendable, CustomStringConvertible {
  /// What an error of this module carries besides its code, reason and cause (a byte offset, a
  /// location, the credential at fault), or `Never` when nothing.
  associatedtype Detail: Sendable = Never

  /// The error's name in descriptions, e.g. `CBORError`; by default the code type's name without
  /// its `Code` suffix (`CBORErrorCode` names `CBORError`).
  static var errorName: String { get }

  /// The one-line description of an error with this code; by default `ErrorName.code: reason`.
  static func description(of error: DCError<Self>) -> String
}

extension DCErrorCode {
  /// The code type's name without its `Code` suffix: `CBORErrorCode` names `CBORError`.
  public static var errorName: String {
    let name = String(describing: Self.self)
    return name.hasSuffix("Code") ? String(name.dropLast(4)) : name
  }

  /// `ErrorName.code: reason`.
  public static func description(of error: DCError<Self>) -> String {
    "\(errorName).\(error.code): \(error.reason)"
  }
}

/// The one error shape every module shares (issue 11 §4, "errors keep their cause").
///
/// An error has a stable `code` (match on it), a `reason` for people, the module's own `detail`
/// when it has one, the `underlying` error it wraps (a lower module's error, kept as a value and
/// never flattened into `reason`), and the `file`/`line` where it was created (`#fileID`/`#line`
/// defaults, as swift-certificates' `Error.swift` does). Two errors are equal when their codes
/// are: the reason, detail, cause and throw site are ignored, so a test can build the expected
/// error directly.
public struct DCError<Code: DCErrorCode>: Error, Sendable, Hashable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  /// What kind of failure this is; match on it, never on the reason text.
  public let code: Code
  /// A human-readable explanation, never containing key material.
  public let reason: String
  /// What the module adds about this failure (see ``DCErrorCode/Detail``), when known.
  public let detail: Code.Detail?
  /// The error this one wraps (a lower module's error, kept as a value), or nil for a root cause.
  public let underlying: (any Error & Sendable)?
  /// The file (`#fileID`) where the error was created.
  public let file: String
  /// The line where the error was created.
  public let line: UInt

  /// Creates an error with a code and a reason, and optionally a detail and the error it wraps.
  public init(
    _ code: Code, _ reason: String, detail: Code.Detail? = nil,
    underlying: (any Error & Sendable)? = nil, file: String = #fileID, line: UInt = #line
  ) {
    self.code = code
    self.reason = reason
    self.detail = detail
    self.underlying = underlying
    self.file = file
    self.line = line
  }

  /// One line, by default `ErrorName.code: reason` (see ``DCErrorCode/description(of:)``).
  public var description: String { Code.description(of: self) }

  /// The description, the throw site, and the cause chain, one per line.
  public var debugDescription: String {
    var text = "\(description) (\(file):\(line))"
    if let underlying { text += "\n  caused by: " + String(reflecting: underlying) }
    return text
  }

  /// Equal when the codes are; the reason, detail, cause and throw site are ignored.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

  /// Hashes the code, the one field `==` compares.
  public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
