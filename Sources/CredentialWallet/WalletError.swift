/// An error from the wallet: an extensible code and a reason.
public struct WalletError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of failure this is.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    private init(_ name: String) { self.name = name }
    public var description: String { name }

    /// A credential failed verification on import; nothing was written.
    public static let importRejected = Code("importRejected")
    /// No credential, key or anchor has that identifier.
    public static let notFound = Code("notFound")
    /// The request was refused: nothing can answer it, or the policy or the user said no.
    public static let refused = Code("refused")
    /// The input is malformed (a file, a certificate, a key).
    public static let invalidInput = Code("invalidInput")
    /// Storage or key storage failed.
    public static let storage = Code("storage")
    /// The user did not authenticate; nothing was sent and the request may be retried.
    public static let authenticationCancelled = Code("authenticationCancelled")
  }

  /// What kind of failure this is.
  public let code: Code
  /// A human-readable explanation.
  public let reason: String

  /// Creates an error with a code and a reason.
  public init(_ code: Code, _ reason: String) {
    self.code = code
    self.reason = reason
  }

  public var description: String { reason }
}
