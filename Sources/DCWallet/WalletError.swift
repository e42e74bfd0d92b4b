public import DCErrors

/// An error from the wallet: an extensible code, a reason, the error it was decided on, and
/// for a refused envelope the typed refusal of each request.
public struct WalletError: CausedError {
  /// What kind of failure this is.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    private init(_ name: String) { self.name = name }
    public var description: String { name }

    /// A credential failed verification on import; nothing was written.
    package static let importRejected = Code("importRejected")
    /// No credential, key or anchor has that identifier.
    public static let notFound = Code("notFound")
    /// The request was refused: nothing can answer it, or the policy or the user said no.
    public static let refused = Code("refused")
    /// The input is malformed (a file, a certificate, a key).
    package static let invalidInput = Code("invalidInput")
    /// Storage or key storage failed.
    public static let storage = Code("storage")
    /// The user did not authenticate; nothing was sent and the request may be retried.
    public static let authenticationCancelled = Code("authenticationCancelled")
    /// The policy asks for a device authentication the device key or the session cannot give
    /// (an ISO 18013-5 deviceMac with a key that cannot do key agreement); nothing was sent.
    package static let unsupportedDeviceAuthentication = Code("unsupportedDeviceAuthentication")
    /// An exchange with a verifier over HTTP failed (OpenID4VP redirect flows): a URL the policy
    /// does not allow, a connection failure, a time or size limit, or an answer of the wrong
    /// status or type.
    public static let transport = Code("transport")
  }

  /// What kind of failure this is.
  public let code: Code
  /// A human-readable explanation.
  public let reason: String
  /// The error this one was decided on (a store, key store or protocol module error), if any.
  public let underlying: (any Error & Sendable)?
  /// For an envelope none of whose requests could be answered: why each was refused, in the
  /// envelope's order. Empty otherwise.
  public let refusals: [Refusal]
  /// The file (`#fileID`) where the error was created.
  public let file: String
  /// The line where the error was created.
  public let line: UInt

  /// Creates an error with a code and a reason, and optionally its cause and refusals.
  public init(
    _ code: Code, _ reason: String, underlying: (any Error & Sendable)? = nil,
    refusals: [Refusal] = [], file: String = #fileID, line: UInt = #line
  ) {
    self.code = code
    self.reason = reason
    self.underlying = underlying
    self.refusals = refusals
    self.file = file
    self.line = line
  }

  /// The reason alone (the CLI prints it as is).
  public var description: String { reason }

  /// The reason, the throw site, and the cause chain, one per line.
  public var debugDescription: String { causedDebugDescription }

  public static func == (lhs: WalletError, rhs: WalletError) -> Bool {
    lhs.code == rhs.code && lhs.reason == rhs.reason && lhs.refusals == rhs.refusals
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(code)
    hasher.combine(reason)
    hasher.combine(refusals)
  }
}
