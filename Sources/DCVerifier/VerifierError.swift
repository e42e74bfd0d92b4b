@_exported public import DCErrors
import DCOrgIsoMdoc

/// An error of the verifier's mdoc exchanges (Annex C over the DC API, ISO 18013-5 proximity): a
/// request that cannot be built, a response that does not open or does not verify.
public typealias VerifierError = DCError<VerifierErrorCode>

/// What kind of failure a ``VerifierError`` is.
public struct VerifierErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// The request cannot be built or read (no document, a state that cannot be read).
  public static let invalidRequest = Self("invalidRequest")
  /// The verifier's key is not the one the request's EncryptionInfo names, or the EncryptionInfo
  /// is malformed (ISO/IEC TS 18013-7 C.3.2.1).
  public static let invalidEncryptionInfo = Self("invalidEncryptionInfo")
  /// The encrypted response cannot be opened (wrong key, origin or a tampered message).
  public static let decryptionFailed = Self("decryptionFailed")
  /// The response does not verify (issuer, device authentication, or what was returned).
  public static let verificationFailed = Self("verificationFailed")
  /// A signing or key step failed.
  public static let cryptoFailure = Self("cryptoFailure")
  /// No open DC API transaction has this id (never made, expired, or purged).
  public static let unknownTransaction = Self("unknownTransaction")
  /// The DC API transaction already took a response: each takes one.
  public static let alreadyAnswered = Self("alreadyAnswered")
  /// The response names a protocol the transaction did not request.
  public static let unsupportedProtocol = Self("unsupportedProtocol")
  /// The wallet answered with an error response (OpenID4VP 1.0 §8.5), such as `access_denied`.
  public static let walletError = Self("walletError")
  /// Every check outside a zero-knowledge proof passed, but this build has no verifier for its
  /// proof system (ISO 18013-5 2nd edition `ZkDocument`).
  public static let proofSystemUnavailable = Self("proofSystemUnavailable")
  /// The store of DC API transactions (a database) did not answer; the transaction is unchanged.
  public static let storeUnavailable = Self("storeUnavailable")
}

extension DCError where Code == VerifierErrorCode {
  /// An org-iso-mdoc failure under the verifier's code of the same kind; the original is the
  /// underlying error.
  init(_ error: OrgIsoMdocError, file: String = #fileID, line: UInt = #line) {
    let code: VerifierErrorCode
    switch error.code {
    case .invalidEncryptionInfo: code = .invalidEncryptionInfo
    case .decryptionFailed: code = .decryptionFailed
    case .cryptoFailure: code = .cryptoFailure
    default: code = .invalidRequest
    }
    self.init(code, error.reason, underlying: error, file: file, line: line)
  }
}

/// Runs an org-iso-mdoc step and reports its failure as a ``VerifierError``.
func orgIsoMdoc<T>(_ body: () throws(OrgIsoMdocError) -> T) throws(VerifierError) -> T {
  do { return try body() } catch { throw VerifierError(error) }
}
