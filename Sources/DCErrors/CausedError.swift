/// The shape every module's error shares (issue 11 §4, "errors keep their cause").
///
/// An error has a stable `code` (match on it), a `reason` for people, the `underlying` error it
/// wraps (a lower module's error, kept as a value and never flattened into `reason`), and the
/// `file`/`line` where it was created (`#fileID`/`#line` defaults, as swift-certificates'
/// `Error.swift` does). A conforming type declares only its code values, stored properties and
/// initialisers; this protocol gives it the rest:
///
/// - `causedDescription`: `TypeName.code: reason` (the CLI prints it);
/// - `causedDebugDescription`: the description, the throw site and the cause chain, one per line;
/// - `==` and `hash(into:)` over the code and reason only, never the cause or the throw site, so
///   a test can build the expected error directly. A type with fields of its own that belong to
///   its identity (an offset, a location) implements both itself.
///
/// A conforming type still declares `description` and `debugDescription` itself, one line each
/// (`{ causedDescription }`, `{ causedDebugDescription }`): under `MemberImportVisibility` a
/// member supplied by this module's extension is visible only to files that import `ErrorKit`,
/// and callers of an error's description should not have to.
public protocol CausedError: Error, Sendable, Hashable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  /// The error's code type: an extensible set of values rather than an enum, so that a new
  /// failure kind breaks no client.
  associatedtype Code: Hashable & Sendable & CustomStringConvertible

  /// What kind of failure this is; match on it, never on the reason text.
  var code: Code { get }
  /// A human-readable explanation.
  var reason: String { get }
  /// The error this one wraps (a lower module's error, kept as a value), or nil for a root cause.
  var underlying: (any Error & Sendable)? { get }
  /// The file (`#fileID`) where the error was created.
  var file: String { get }
  /// The line where the error was created.
  var line: UInt { get }
}

extension CausedError {
  /// `TypeName.code: reason`.
  public var causedDescription: String { "\(Self.self).\(code): \(reason)" }

  /// The description, the throw site, and the cause chain, one per line.
  public var causedDebugDescription: String {
    var text = "\(description) (\(file):\(line))"
    if let underlying { text += "\n  caused by: " + String(reflecting: underlying) }
    return text
  }

  /// Equal when the code and reason are; the cause and throw site are ignored.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.code == rhs.code && lhs.reason == rhs.reason
  }

  /// Hashes the fields `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(code)
    hasher.combine(reason)
  }
}
