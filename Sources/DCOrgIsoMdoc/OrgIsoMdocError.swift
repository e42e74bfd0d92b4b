@_exported public import DCErrors

/// An error of the org-iso-mdoc protocol (ISO/IEC TS 18013-7:2025 Annex C): its request or
/// response data cannot be read, its EncryptionInfo is malformed, or its HPKE sealing fails.
package typealias OrgIsoMdocError = DCError<OrgIsoMdocErrorCode>

/// What kind of failure an ``OrgIsoMdocError`` is.
package struct OrgIsoMdocErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  package var description: String { name }

  /// The request `data` or the response `data` cannot be read (ISO/IEC TS 18013-7 C.3.2).
  package static let invalidRequest = Self("invalidRequest")
  /// `encryptionInfo` is malformed: tag, nonce or recipient key (ISO/IEC TS 18013-7 C.3.2.1).
  package static let invalidEncryptionInfo = Self("invalidEncryptionInfo")
  /// The encrypted response cannot be opened (wrong key, origin or a tampered message).
  package static let decryptionFailed = Self("decryptionFailed")
  /// A sealing step failed.
  package static let cryptoFailure = Self("cryptoFailure")
}
