@_exported public import DCErrors

/// An error from the ISO/IEC 18013-5 proximity session layer: an extensible code, a reason, the
/// error it wraps, and, for a failure while a session runs, the status to send to the other side.
public typealias MdocProximityError = DCError<MdocProximityErrorCode>

/// What kind of failure this is.
public struct MdocProximityErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// A structure does not match its CDDL (DeviceEngagement §8.2.1.1, SessionEstablishment and
  /// SessionData §9.1.1.4) or is not well-formed CBOR.
  public static let malformed = Self("malformed")
  /// The DeviceEngagement's version is not a 1.x version (ISO 18013-5 §8.2.1.1).
  package static let unsupportedVersion = Self("unsupportedVersion")
  /// The Security cipher suite is not 1 (ISO 18013-5 §9.1.5.2).
  package static let unsupportedCipherSuite = Self("unsupportedCipherSuite")
  /// An ephemeral key is not a usable EC2 COSE_Key on a supported curve, or the two keys of a
  /// session are on different curves (ISO 18013-5 §9.1.5.2).
  public static let invalidKey = Self("invalidKey")
  /// An `mdoc:` URI is not `mdoc:` followed by unpadded base64url (ISO 18013-5 §8.2.2.3).
  package static let invalidURI = Self("invalidURI")
  /// An NDEF message or a Connection Handover record is malformed (NFC Forum NDEF, Connection
  /// Handover 1.5; ISO 18013-5 §8.2.2.1).
  public static let malformedNDEF = Self("malformedNDEF")
  /// An input is larger than its documented bound (docs/LIMITS.md, "Proximity session").
  public static let tooLarge = Self("tooLarge")
  /// A message does not decrypt: wrong key, tampered, replayed or out of order
  /// (ISO 18013-5 §9.1.1.5).
  public static let decryptionFailed = Self("decryptionFailed")
  /// The message counter reached 2³²−1; no further message can be encrypted with this key
  /// (ISO 18013-5 §9.1.1.5).
  package static let counterExhausted = Self("counterExhausted")
  /// A SessionData carries a status code that ISO 18013-5 Table 20 does not define.
  public static let unknownStatus = Self("unknownStatus")
  /// The other side ended the session with an error status (10 or 11, ISO 18013-5 Table 20).
  public static let peerReportedError = Self("peerReportedError")
  /// A message arrived, or one was to be sent, after the session ended (ISO 18013-5 §9.1.1.4).
  public static let sessionClosed = Self("sessionClosed")
  /// A message arrived that this role does not expect now, such as a SessionData before the
  /// SessionEstablishment (ISO 18013-5 §9.1.1.4).
  package static let unexpectedMessage = Self("unexpectedMessage")

  /// The status the session sends the other side before it closes (ISO 18013-5 Table 20).
  public typealias Detail = SessionStatus
}

extension DCError where Code == MdocProximityErrorCode {
  /// Creates an error with a code, a reason and the status the session answers it with.
  package init(
    _ code: MdocProximityErrorCode, _ reason: String, status: SessionStatus?,
    underlying: (any Error & Sendable)? = nil, file: String = #fileID, line: UInt = #line
  ) {
    self.init(code, reason, detail: status, underlying: underlying, file: file, line: line)
  }

  /// The status the session sends the other side before it closes (ISO 18013-5 Table 20), or nil
  /// when nothing is to be sent (the error is not a session failure, or the other side already
  /// ended the session).
  public var status: SessionStatus? { detail }

  /// The same error with the status the session answers it with.
  func answered(with status: SessionStatus?) -> MdocProximityError {
    MdocProximityError(
      code, reason, status: status, underlying: underlying, file: file, line: line)
  }

  /// The SessionData to send before closing: `{"status": status}` (ISO 18013-5 §9.1.1.4), or nil.
  public var statusMessage: [UInt8]? { status.map { SessionData(status: $0).bytes } }
}
