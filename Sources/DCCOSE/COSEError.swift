import DCCBOR
import DCCrypto
@_exported public import DCErrors

/// An error from COSE (RFC 9052/9053): an extensible code and a reason.
public typealias COSEError = DCError<COSEErrorCode>

/// What kind of failure this is.
public struct COSEErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// The structure is not a well-formed COSE message or key.
  public static let malformed = Self("malformed")
  /// The algorithm is absent, unknown, or not allowed here.
  public static let unsupportedAlgorithm = Self("unsupportedAlgorithm")
  /// The algorithm does not fit the key (ES256 needs P-256, and so on).
  package static let algorithmKeyMismatch = Self("algorithmKeyMismatch")
  /// The signature or MAC does not verify.
  public static let invalidSignature = Self("invalidSignature")
  /// The payload is detached but none was supplied, or is attached and one was supplied.
  package static let payloadMismatch = Self("payloadMismatch")
  /// A COSE_Key is not a usable key.
  public static let invalidKey = Self("invalidKey")
  /// A critical header parameter is not understood (RFC 9052 §3.1 `crit`).
  package static let unknownCriticalHeader = Self("unknownCriticalHeader")
}

extension DCError where Code == COSEErrorCode {
  init(_ error: CBORError, _ context: String, file: String = #fileID, line: UInt = #line) {
    self.init(.malformed, "\(context): \(error.reason)", underlying: error, file: file, line: line)
  }

  init(_ error: CryptoError, _ context: String, file: String = #fileID, line: UInt = #line) {
    self.init(.invalidKey, "\(context): \(error.reason)", underlying: error, file: file, line: line)
  }
}
