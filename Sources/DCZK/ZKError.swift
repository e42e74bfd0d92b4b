@_exported public import DCErrors

/// An error from reading or verifying a Longfellow zero-knowledge proof
/// (draft-google-cfrg-libzk): an extensible code naming what failed, and a reason.
public typealias ZKError = DCError<ZKErrorCode>

/// What kind of failure this is; match on it, never on the reason text.
public struct ZKErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// The circuit file is not a zstd stream, or not a circuit as the draft serialises it (LFC1).
  public static let circuitUnreadable = Self("circuitUnreadable")
  /// The circuit, compressed or not, or one of its counts is larger than DCZK's limits.
  public static let circuitTooLarge = Self("circuitTooLarge")
  /// The circuit is not the one the statement names (its id differs).
  public static let circuitMismatch = Self("circuitMismatch")
  /// The proof is not as the draft serialises it (a bad field element or count).
  public static let proofMalformed = Self("proofMalformed")
  /// The proof ends before its last element.
  public static let proofTruncated = Self("proofTruncated")
  /// Bytes follow the proof's last element.
  public static let proofTrailingBytes = Self("proofTrailingBytes")
  /// The proof, or one of its counts, is larger than DCZK's limits.
  public static let proofTooLarge = Self("proofTooLarge")
  /// The public inputs do not match the circuit (count or value).
  public static let publicInputsInvalid = Self("publicInputsInvalid")
  /// A Merkle opening does not lead to the committed root.
  public static let merkleMismatch = Self("merkleMismatch")
  /// A sumcheck round or the final claim does not hold.
  public static let sumcheckMismatch = Self("sumcheckMismatch")
  /// A Ligero check (low degree, linear, quadratic) does not hold.
  public static let ligeroCheckFailed = Self("ligeroCheckFailed")
  /// A MAC tying the proof's two circuits together does not match (the mdoc layer).
  public static let macMismatch = Self("macMismatch")
  // The holder's side (MdocZKWitness, package for now: no public API proves yet).
  /// The holder's mdoc lacks a part the circuits read, or is not CBOR as they read it.
  package static let mdocMalformed = Self("mdocMalformed")
  /// The holder's mdoc is outside what the circuits take (a size, a shape, another docType).
  package static let mdocUnsupported = Self("mdocUnsupported")
  /// The holder's mdoc does not disclose an attribute the statement names.
  package static let attributeNotFound = Self("attributeNotFound")
  /// The issuer's or the device's signature in the holder's mdoc does not verify.
  package static let signatureInvalid = Self("signatureInvalid")
  /// A prover's witness does not satisfy the circuit (an assertion fails or an output is not
  /// zero): there is nothing true to prove.
  public static let witnessRejected = Self("witnessRejected")
}
