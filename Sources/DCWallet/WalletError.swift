@_exported public import DCErrors

/// An error from the wallet: an extensible code, a reason, the error it was decided on, and
/// for a refused envelope the typed refusal of each request.
public typealias WalletError = DCError<WalletErrorCode>

/// What kind of failure this is.
public struct WalletErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// A credential failed verification on import; nothing was written.
  package static let importRejected = Self("importRejected")
  /// No credential, key or anchor has that identifier.
  public static let notFound = Self("notFound")
  /// The request was refused: nothing can answer it, or the policy or the user said no.
  public static let refused = Self("refused")
  /// The input is malformed (a file, a certificate, a key).
  package static let invalidInput = Self("invalidInput")
  /// Storage or key storage failed.
  public static let storage = Self("storage")
  /// The user did not authenticate; nothing was sent and the request may be retried.
  public static let authenticationCancelled = Self("authenticationCancelled")
  /// The policy asks for a device authentication the device key or the session cannot give
  /// (an ISO 18013-5 deviceMac with a key that cannot do key agreement); nothing was sent.
  public static let unsupportedDeviceAuthentication = Self("unsupportedDeviceAuthentication")
  /// An exchange with a verifier over HTTP failed (OpenID4VP redirect flows): a URL the policy
  /// does not allow, a connection failure, a time or size limit, or an answer of the wrong
  /// status or type.
  public static let transport = Self("transport")

  /// For an envelope none of whose requests could be answered: why each was refused, in the
  /// envelope's order.
  public typealias Detail = [Refusal]

  /// The reason alone (the CLI prints it as is).
  public static func description(of error: WalletError) -> String { error.reason }
}

extension DCError where Code == WalletErrorCode {
  /// Creates an error with a code, a reason, its cause and the refusal of each request.
  public init(
    _ code: WalletErrorCode, _ reason: String, underlying: (any Error & Sendable)? = nil,
    refusals: [Refusal], file: String = #fileID, line: UInt = #line
  ) {
    self.init(code, reason, detail: refusals, underlying: underlying, file: file, line: line)
  }

  /// For an envelope none of whose requests could be answered: why each was refused, in the
  /// envelope's order. Empty otherwise.
  public var refusals: [Refusal] { detail ?? [] }
}
