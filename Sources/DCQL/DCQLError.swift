@_exported public import DCErrors

/// An error from parsing or validating a DCQL query: an extensible code, where, and why.
///
/// Codes are values rather than enum cases so that new failure kinds break no client
/// (OpenID4VP 1.0 §6: a Wallet refuses a query that does not follow the rules).
public typealias DCQLError = DCError<DCQLErrorCode>

/// What kind of failure this is; match on it, never on the reason text.
public struct DCQLErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }

  /// The code's name, for logs.
  public var description: String { name }

  /// The input is not JSON, or holds a value with no JSON meaning (RFC 8259).
  public static let invalidJSON = Self("invalidJSON")
  /// A member is missing, has the wrong type or breaks a structural rule (OpenID4VP 1.0 §6.1–§6.3).
  public static let invalidQuery = Self("invalidQuery")
  /// An identifier has characters outside `[A-Za-z0-9_-]` or is not unique (OpenID4VP 1.0 §6.1, §6.3).
  package static let invalidIdentifier = Self("invalidIdentifier")
  /// `claim_sets` or `credential_sets` names an id that does not exist (OpenID4VP 1.0 §6.1, §6.2).
  package static let unknownReference = Self("unknownReference")
  /// A claims path pointer is empty or has a component that is not a string, index or null (OpenID4VP 1.0 §7).
  package static let invalidPath = Self("invalidPath")
  /// A `values` entry, `meta` member or trusted authority value has the wrong type or encoding (OpenID4VP 1.0 §6.1.1, §6.3).
  package static let invalidValue = Self("invalidValue")

  /// Where in the query the problem is, a path such as `credentials[0].claims[1]`.
  public typealias Detail = String

  /// `DCQLError.code at location: reason`, or without the location when there is none.
  public static func description(of error: DCQLError) -> String {
    error.location.isEmpty
      ? "DCQLError.\(error.code): \(error.reason)"
      : "DCQLError.\(error.code) at \(error.location): \(error.reason)"
  }
}

extension DCError where Code == DCQLErrorCode {
  /// Creates an error at a location in the query, such as `credentials[0].claims[1]`.
  package init(
    _ code: DCQLErrorCode, at location: String, _ reason: String,
    underlying: (any Error & Sendable)? = nil, file: String = #fileID, line: UInt = #line
  ) {
    self.init(
      code, reason, detail: location.isEmpty ? nil : location, underlying: underlying, file: file,
      line: line)
  }

  /// Where in the query the problem is, such as `credentials[0].claims[1]`; empty for the whole
  /// query.
  public var location: String { detail ?? "" }
}
