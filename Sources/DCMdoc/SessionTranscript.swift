public import DCCBOR
import DCCOSE
public import DCCrypto

/// `SessionTranscript = [DeviceEngagementBytes, EReaderKeyBytes, Handover]` (ISO 18013-5
/// §9.1.5.1), kept as its exact encoding: DeviceAuthentication and ReaderAuthentication embed it,
/// and the HPKE `info` of ISO/IEC TS 18013-7 Annex C is its bytes.
public struct SessionTranscript: Sendable, Hashable {

  /// The array's member positions, named once (ISO 18013-5 §9.1.5.1).
  enum Keys {
    static let deviceEngagementBytes = 0
    static let eReaderKeyBytes = 1
    static let handover = 2
    static let count = 3
    static let clause = "ISO 18013-5 §9.1.5.1"
  }

  /// The transcript's encoding and value.
  package let encoded: EncodedCBOR

  /// Builds a transcript. Online presentations (ISO/IEC TS 18013-7 Annex C, OpenID4VP) use
  /// null for the first two members.
  public init(deviceEngagementBytes: CBOR = .null, eReaderKeyBytes: CBOR = .null, handover: CBOR) {
    encoded = EncodedCBOR(mdoc: [deviceEngagementBytes, eReaderKeyBytes, handover])
  }

  /// Reads a transcript from its encoding, keeping the bytes.
  public init(bytes: [UInt8]) throws(MdocError) {
    let encoded = try reading("SessionTranscript") { () throws(CBORError) in
      try EncodedCBOR(bytes: bytes)
    }
    try self.init(encoded: encoded)
  }

  /// Reads `SessionTranscriptBytes = #6.24(bstr .cbor SessionTranscript)`.
  package init(taggedBytes: [UInt8]) throws(MdocError) {
    let encoded = try reading("SessionTranscriptBytes") { () throws(CBORError) in
      try EncodedCBOR(tag24: CBOR.decode(taggedBytes))
    }
    try self.init(encoded: encoded)
  }

  private init(encoded: EncodedCBOR) throws(MdocError) {
    guard let members = encoded.value.array, members.count == Keys.count else {
      throw MdocError(
        .malformed, "SessionTranscript must be an array of \(Keys.count) members (\(Keys.clause))")
    }
    self.encoded = encoded
  }

  /// The transcript as a CBOR item that re-encodes to exactly its bytes.
  package var cbor: CBOR { .encoded(encoded) }

  /// The transcript's bytes (the HPKE `info` of ISO/IEC TS 18013-7 Annex C).
  public var bytes: [UInt8] { encoded.bytes }

  /// `SessionTranscriptBytes`: the transcript wrapped in tag 24 (ISO 18013-5 §9.1.5.1).
  package var taggedBytes: [UInt8] { encoded.tag24.encoded() }

  /// The HKDF salt of every key this session derives, `SHA-256(SessionTranscriptBytes)`: the
  /// session keys SKReader / SKDevice (ISO 18013-5 §9.1.1.5) and EMacKey (§9.1.3.5).
  package var keyDerivationSalt: [UInt8] { SHA256.hash(data: taggedBytes) }

  /// The third member.
  package var handover: CBOR { encoded.value.array?[Keys.handover] ?? .null }

  /// The reader's ephemeral key in person: the second member, `EReaderKeyBytes =
  /// #6.24(bstr .cbor EReaderKey)` with `EReaderKey = COSE_Key` (§9.1.5.1); nil when the member
  /// is null (the online profiles).
  ///
  /// - Throws: `malformed` when the member is neither null nor a tag 24 COSE_Key of a curve
  ///   this package supports.
  public var eReaderKey: ECPublicKey? {
    get throws(MdocError) {
      guard let member = encoded.value.array?[Keys.eReaderKeyBytes], member != .null else {
        return nil
      }
      do {
        // Read from its encoding, so a member given as kept bytes reads the same.
        guard case .tagged(24, .byteString(let bytes)) = try CBOR.decode(member.mdocEncoded) else {
          throw MdocError(
            .malformed, "SessionTranscript EReaderKeyBytes must be a tag 24 byte string")
        }
        return try COSEKey(cbor: try CBOR.decode(bytes)).publicKey()
      } catch let error as MdocError {
        throw error
      } catch {
        throw MdocError(
          .malformed, "SessionTranscript EReaderKey (\(Keys.clause)): \(error)", underlying: error)
      }
    }
  }
}

/// The handovers of the online presentation profiles.
public enum Handover {
  /// `["dcapi", SHA-256(CBOR([encryptionInfoBase64, origin]))]` (ISO/IEC TS 18013-7:2025 C.3.2.2).
  ///
  /// - Parameters:
  ///   - encryptionInfoBase64: the base64url text exactly as received in the request.
  ///   - origin: the serialized origin the platform supplied, never one from the payload.
  public static func dcapi(encryptionInfoBase64: String, origin: String) -> CBOR {
    let info: CBOR = [.textString(encryptionInfoBase64), .textString(origin)]
    return ["dcapi", .byteString(SHA256.hash(data: info.mdocEncoded))]
  }

  /// `["OpenID4VPDCAPIHandover", SHA-256(CBOR([origin, nonce, jwkThumbprint]))]` (OpenID4VP 1.0
  /// §B.2.6.2); the thumbprint is null when the response is not encrypted.
  public static func openID4VPDCAPI(origin: String, nonce: String, jwkThumbprint: [UInt8]?) -> CBOR
  {
    let info: CBOR = [
      .textString(origin), .textString(nonce), jwkThumbprint.map { .byteString($0) } ?? .null,
    ]
    return ["OpenID4VPDCAPIHandover", .byteString(SHA256.hash(data: info.mdocEncoded))]
  }

  /// `["OpenID4VPHandover", SHA-256(CBOR([clientId, nonce, jwkThumbprint, responseUri]))]`
  /// (OpenID4VP 1.0 §B.2.6.1, redirect-based flows).
  public static func openID4VP(
    clientID: String, nonce: String, jwkThumbprint: [UInt8]?, responseURI: String
  ) -> CBOR {
    let info: CBOR = [
      .textString(clientID), .textString(nonce), jwkThumbprint.map { .byteString($0) } ?? .null,
      .textString(responseURI),
    ]
    return ["OpenID4VPHandover", .byteString(SHA256.hash(data: info.mdocEncoded))]
  }
}
