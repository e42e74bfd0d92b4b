package import DCCBOR
import DCCOSE
package import DCCrypto

/// `SessionEstablishment = {"eReaderKey": EReaderKeyBytes, "data": bstr}`: the reader's first
/// message, its ephemeral key and the encrypted DeviceRequest (ISO 18013-5 §9.1.1.4).
package struct SessionEstablishment: Sendable, Hashable {
  enum Keys {
    static let eReaderKey = "eReaderKey"
    static let data = "data"
    static let clause = "ISO 18013-5 §9.1.1.4"
  }

  /// The reader's ephemeral public key.
  package let eReaderKey: ECPublicKey
  /// The COSE_Key of `eReaderKey` exactly as sent (the content of `EReaderKeyBytes`, which enters
  /// the SessionTranscript as it arrived).
  package let eReaderKeyEncoded: EncodedCBOR
  /// The encrypted DeviceRequest (AES-256-GCM ciphertext and tag, §9.1.1.5).
  package let data: [UInt8]
  /// The message's bytes.
  package let bytes: [UInt8]

  /// Builds the message (preferred serialization, keys in CDDL order).
  package init(eReaderKey: ECPublicKey, data: [UInt8]) {
    self.init(
      eReaderKey: eReaderKey,
      eReaderKeyEncoded: EncodedCBOR(encoding: COSEKey(publicKey: eReaderKey).cbor), data: data)
  }

  init(eReaderKey: ECPublicKey, eReaderKeyEncoded: EncodedCBOR, data: [UInt8]) {
    self.eReaderKey = eReaderKey
    self.eReaderKeyEncoded = eReaderKeyEncoded
    self.data = data
    let message: CBOR = [
      .textString(Keys.eReaderKey): eReaderKeyEncoded.tag24,
      .textString(Keys.data): .byteString(data),
    ]
    self.bytes = proximityEncoder.encode(message)
  }

  /// Reads a received message, keeping `EReaderKeyBytes` exactly. A message that is not the CDDL
  /// answers status 11; a key that is not a valid point of a supported curve answers status 10.
  package init(bytes: [UInt8], limits: SessionLimits = .default) throws(MdocProximityError) {
    guard bytes.count <= limits.maxMessageByteCount else {
      throw MdocProximityError(
        .tooLarge,
        "SessionEstablishment of \(bytes.count) bytes exceeds the limit of \(limits.maxMessageByteCount)",
        status: .cborDecodingError)
    }
    let item = try decodeMessage(
      bytes, "SessionEstablishment", limits: .sessionMessage(limits), status: .cborDecodingError)
    let keyItem: EncodedCBOR
    let data: [UInt8]
    do {
      let reader = try CBORMapReader(
        item, structure: "SessionEstablishment", clause: Keys.clause,
        knownKeys: [Keys.eReaderKey, Keys.data])
      keyItem = try reader.requiredTag24(Keys.eReaderKey)
      data = try reader.required(Keys.data, as: ByteString.self).bytes
    } catch {
      throw MdocProximityError(
        .malformed, error.reason, status: .cborDecodingError, underlying: error)
    }
    do {
      self.eReaderKey = try ephemeralKey(keyItem, "SessionEstablishment.eReaderKey")
    } catch {
      // §9.1.1.4: a key that is not a COSE_Key is a decoding error; one that is no usable point
      // fails the session encryption.
      throw error.answered(
        with: error.code == .malformed ? .cborDecodingError : .sessionEncryptionError)
    }
    self.eReaderKeyEncoded = keyItem
    self.data = data
    self.bytes = bytes
  }

  /// `EReaderKeyBytes = #6.24(bstr .cbor EReaderKey)` as received (ISO 18013-5 §9.1.5.1).
  package var eReaderKeyBytes: CBOR { eReaderKeyEncoded.tag24 }
}
