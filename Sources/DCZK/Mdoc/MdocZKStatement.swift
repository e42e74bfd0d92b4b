import DCCBOR

/// One attribute a Longfellow mdoc proof discloses: its element identifier and its value's CBOR
/// encoding (e.g. `age_over_18` and `f5` for `true`).
public struct MdocZKAttribute: Sendable, Hashable {
  /// The element identifier, e.g. `age_over_18`.
  package let identifier: String
  /// The element value's CBOR bytes, e.g. `[0xF5]` for `true`.
  package let cborValue: [UInt8]

  /// An attribute and the value the proof must show.
  public init(identifier: String, cborValue: [UInt8]) {
    self.identifier = identifier
    self.cborValue = cborValue
  }
}

/// What a verifier of a Longfellow mdoc proof knows: the public inputs of the two circuits
/// (longfellow-zk `lib/circuits/mdoc/mdoc_zk.cc`, `fill_public_inputs`). The name space is not
/// one: every attribute of a proof shares one, and the circuit does not read it.
public struct MdocZKStatement: Sendable, Hashable {
  /// The issuer's (document signer's) P-256 public key, x then y, 32 bytes big-endian each; taken
  /// from the first certificate of `msoX5chain`, checked outside the proof.
  package let issuerKeyX: [UInt8]
  /// The issuer key's y coordinate, 32 bytes big-endian.
  package let issuerKeyY: [UInt8]
  /// The document type, e.g. `org.iso.18013.5.1.mDL`.
  package let docType: String
  /// The disclosed attributes, in the circuit's order.
  package let attributes: [MdocZKAttribute]
  /// The SessionTranscript's CBOR bytes: they seed Fiat–Shamir and are signed by the device.
  package let sessionTranscript: [UInt8]
  /// The time the credential must be valid at, `YYYY-MM-DDTHH:MM:SSZ` (20 characters).
  package let now: String

  /// Checks each part against what the circuits take.
  ///
  /// - Throws: `ZKError` `publicInputsInvalid` when a coordinate is not 32 bytes below P-256's
  ///   prime, `now` is not 20 characters `YYYY-MM-DDTHH:MM:SSZ`, there are not 1 to 4
  ///   attributes, an identifier is over 32 bytes, a value over 64 bytes or not one primitive CBOR
  ///   item, the docType is over 255 bytes or the transcript empty or over 65,000 bytes.
  public init(
    issuerKeyX: [UInt8], issuerKeyY: [UInt8], docType: String, attributes: [MdocZKAttribute],
    sessionTranscript: [UInt8], now: String
  ) throws(ZKError) {
    for coordinate in [issuerKeyX, issuerKeyY] where !MdocZKField.isCanonical(coordinate) {
      throw ZKError(.publicInputsInvalid, "an issuer key coordinate is not 32 bytes below p")
    }
    guard Self.isTime(now) else {
      throw ZKError(.publicInputsInvalid, "now must be 20 characters YYYY-MM-DDTHH:MM:SSZ")
    }
    guard MdocZKLimits.attributes.contains(attributes.count) else {
      throw ZKError(.publicInputsInvalid, "\(attributes.count) attributes; circuits take 1 to 4")
    }
    for attribute in attributes {
      try Self.check(attribute)
    }
    // mdoc_witness.h compute_transcript_hash writes the docType's length in at most 2 bytes and
    // the Sig_structure payload's in at most 3 (a length below 65,536).
    guard docType.utf8.count <= 255 else {
      throw ZKError(.publicInputsInvalid, "the docType is over 255 bytes")
    }
    guard (1...MdocZKLimits.maxSessionTranscriptBytes).contains(sessionTranscript.count) else {
      throw ZKError(
        .publicInputsInvalid,
        "the session transcript has \(sessionTranscript.count) bytes; 1 to "
          + "\(MdocZKLimits.maxSessionTranscriptBytes) are allowed")
    }
    self.issuerKeyX = issuerKeyX
    self.issuerKeyY = issuerKeyY
    self.docType = docType
    self.attributes = attributes
    self.sessionTranscript = sessionTranscript
    self.now = now
  }

  /// `YYYY-MM-DDTHH:MM:SSZ`: digits where digits go (the circuit compares it with the MSO's
  /// validity `tdate`s byte by byte).
  static func isTime(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    let pattern = Array("dddd-dd-ddTdd:dd:ddZ".utf8)
    guard bytes.count == pattern.count else { return false }
    return zip(bytes, pattern).allSatisfy { byte, expected in
      expected == UInt8(ascii: "d") ? (0x30...0x39).contains(byte) : byte == expected
    }
  }

  /// An attribute as `run_mdoc_verifier` accepts it (`mdoc_zk.cc`: identifier ≤ 32 bytes, value
  /// ≤ 64 bytes, `cbor_validate`: one text, byte string, integer or boolean item, or a full-date
  /// (tag 1004, 14 bytes) or tdate (tag 0, 22 bytes) over text).
  static func check(_ attribute: MdocZKAttribute) throws(ZKError) {
    guard attribute.identifier.utf8.count <= 32, !attribute.identifier.isEmpty else {
      throw ZKError(.publicInputsInvalid, "attribute identifiers are 1 to 32 bytes")
    }
    guard (1...64).contains(attribute.cborValue.count) else {
      throw ZKError(.publicInputsInvalid, "attribute values are 1 to 64 CBOR bytes")
    }
    let value: CBOR
    do { value = try CBOR.decode(attribute.cborValue) } catch {
      throw ZKError(.publicInputsInvalid, "an attribute value is not one CBOR item")
    }
    let count = attribute.cborValue.count
    switch value {
    case .textString, .byteString, .unsigned, .negative, .boolean: return
    case .tagged(1004, .textString) where count == 14: return
    case .tagged(0, .textString) where count == 22: return
    default:
      throw ZKError(.publicInputsInvalid, "an attribute value is not a primitive the circuit takes")
    }
  }
}

/// DCZK's bounds on a Longfellow mdoc statement and proof (docs/LIMITS.md).
package enum MdocZKLimits {
  /// Circuits exist for 1 to 4 attributes (`zk_spec.cc`).
  package static let attributes = 1...4
  /// The SessionTranscript's bytes; real ones are a few hundred. Keeps e2's Sig_structure within
  /// the 65,535-byte payload `compute_transcript_hash` can write.
  package static let maxSessionTranscriptBytes = 65_000
}
