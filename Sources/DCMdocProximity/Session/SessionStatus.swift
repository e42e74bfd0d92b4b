/// The status codes of a SessionData message (ISO 18013-5:2021 §9.1.1.4, Table 20). Every one of
/// them ends the session.
///
/// Table 20 defines 10, 11 and 20 only. Code 12 ("CBOR validation error") is a DeviceResponse
/// status (§8.3.2.1.2.3, Table 8), not a SessionData status: a SessionData with 12 is refused as an
/// unknown status like any other code outside the table.
public enum SessionStatus: UInt64, Sendable, Hashable, CaseIterable {
  /// 10, "Error: session encryption": a message did not decrypt, or the session keys could not be
  /// derived.
  case sessionEncryptionError = 10
  /// 11, "Error: CBOR decoding": a message is not the CBOR its CDDL says.
  case cborDecodingError = 11
  /// 20, "Session termination": the sender ends the session normally.
  case sessionTermination = 20
}
