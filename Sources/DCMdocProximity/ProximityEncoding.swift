import DCCBOR

/// The encoder for every structure built here: preferred serialization with definite lengths
/// (RFC 8949 §4.1), maps in the order the CDDL lists their keys, as ISO 18013-5 §8.2.1.1 and the
/// Annex D examples write them.
let proximityEncoder = CBOREncoder(mapOrder: .preserved)

extension EncodedCBOR {
  /// Encodes a structure built here, keeping bytes and value.
  init(proximity value: CBOR) { self.init(encoding: value, with: proximityEncoder) }
}

/// Decodes one received item with `limits`, its failure reported as `malformed` with `status`.
func decodeMessage(
  _ bytes: [UInt8], _ structure: String, limits: CBORDecoder.Limits, status: SessionStatus?
) throws(MdocProximityError) -> CBOR {
  do {
    return try CBORDecoder(limits: limits).decode(bytes)
  } catch {
    throw MdocProximityError(
      .malformed, "\(structure) is not well-formed CBOR: \(error.reason)", status: status,
      underlying: error)
  }
}
