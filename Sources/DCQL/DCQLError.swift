public import DCErrors

/// An error from parsing or validating a DCQL query: an extensible code, where, and why.
///
/// Codes are values rather than enum cases so that new failure kinds break no client
/// (OpenID4VP 1.0 §6: a Wallet refuses a query that does not follow the rules).
public struct DCQLError: CausedError {
  /// What kind of failure this is; match on it, never on the reason text.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    private init(_ name: String) { self.name = name }

    /// The code's name, for logs.
    public var description: String { name }

    /// The input is not JSON, or holds a value with no JSON meaning (RFC 8259).
    public static let invalidJSON = Code("invalidJSON")
    /// A member is missing, has the wrong type or breaks a structural rule (OpenID4VP 1.0 §6.1–§6.3).
    public static let invalidQuery = Code("invalidQuery")
    /// An identifier has characters outside `[A-Za-z0-9_-]` or is not unique (OpenID4VP 1.0 §6.1, §6.3).
    public static let invalidIdentifier = Code("invalidIdentifier")
    /// `claim_sets` or `credential_sets` names an id that does not exist (OpenID4VP 1.0 §6.1, §6.2).
    public static let unknownReference = Code("unknownReference")
    /// A claims path pointer is empty or has a component that is not a string, index or null (OpenID4VP 1.0 §7).
    public static let invalidPath = Code("invalidPath")
    /// A `values` entry, `meta` member or trusted authority value has the wrong type or encoding (OpenID4VP 1.0 §6.1.1, §6.3).
    public static let invalidValue = Code("invalidValue")
  }

  /// What kind of failure this is.
  public let code: Code
  /// Where in the query the failure is, such as `credentials[1].claims[0].path`; empty for the root.
  public let location: String
  /// A human-readable explanation.
  public let reason: String

  /// The error this one wraps (a lower module's error, kept as a value), or nil for a root cause.
  public let underlying: (any Error & Sendable)?
  /// The file (`#fileID`) where the error was created.
  public let file: String
  /// The line where the error was created.
  public let line: UInt

  /// Creates an error with a code, the location in the query, and a reason.
  public init(
    _ code: Code, at location: String = "", _ reason: String,
    underlying: (any Error & Sendable)? = nil, file: String = #fileID, line: UInt = #line
  ) {
    self.underlying = underlying
    self.file = file
    self.line = line
    self.code = code
    self.location = location
    self.reason = reason
  }

  /// `DCQLError.<code> at <location>: <reason>`.
  public var description: String {
    location.isEmpty
      ? "DCQLError.\(code): \(reason)" : "DCQLError.\(code) at \(location): \(reason)"
  }

  /// Equal when the code and reason and location are; the cause and throw site are ignored.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.code == rhs.code && lhs.reason == rhs.reason && lhs.location == rhs.location
  }

  /// Hashes the fields `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(code)
    hasher.combine(reason)
    hasher.combine(location)
  }

  /// The description, the throw site, and the cause chain, one per line.
  public var debugDescription: String { causedDebugDescription }
}
