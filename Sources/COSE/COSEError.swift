import CBOR
import CryptoPrimitives

/// An error from COSE (RFC 9052/9053): an extensible code and a reason.
public struct COSEError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of failure this is.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    private init(_ name: String) { self.name = name }
    public var description: String { name }

    /// The structure is not a well-formed COSE message or key.
    public static let malformed = Code("malformed")
    /// The algorithm is absent, unknown, or not allowed here.
    public static let unsupportedAlgorithm = Code("unsupportedAlgorithm")
    /// The algorithm does not fit the key (ES256 needs P-256, and so on).
    public static let algorithmKeyMismatch = Code("algorithmKeyMismatch")
    /// The signature or MAC does not verify.
    public static let invalidSignature = Code("invalidSignature")
    /// The payload is detached but none was supplied, or is attached and one was supplied.
    public static let payloadMismatch = Code("payloadMismatch")
    /// A COSE_Key is not a usable key.
    public static let invalidKey = Code("invalidKey")
    /// A critical header parameter is not understood (RFC 9052 §3.1 `crit`).
    public static let unknownCriticalHeader = Code("unknownCriticalHeader")
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

  init(_ error: CBORError, _ context: String) {
    self.init(.malformed, "\(context): \(error)")
  }

  init(_ error: CryptoError, _ context: String) {
    self.init(.invalidKey, "\(context): \(error.reason)")
  }

  public var description: String { "COSEError.\(code): \(reason)" }
}
