import DCCBOR
import DCCrypto

/// P-256's base-field prime, p = 2^256 − 2^224 + 2^192 + 2^96 − 1, big-endian: the field the
/// signature circuit works in (its public inputs pkX, pkY and e2 are elements of it).
package enum MdocZKField {
  package static let prime: [UInt8] = [
    0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
  ]

  /// Whether 32 big-endian bytes are an integer below p.
  package static func isCanonical(_ bytes: [UInt8]) -> Bool {
    bytes.count == 32 && bytes.lexicographicallyPrecedes(prime)
  }

  /// 32 big-endian bytes reduced modulo p: below 2^256 < 2p, one subtraction is enough.
  package static func reduced(_ bytes: [UInt8]) -> [UInt8] {
    precondition(bytes.count == 32, "32 bytes")
    guard !isCanonical(bytes) else { return bytes }
    var result = [UInt8](repeating: 0, count: 32)
    var borrow = 0
    for index in stride(from: 31, through: 0, by: -1) {
      var difference = Int(bytes[index]) - Int(prime[index]) - borrow
      borrow = difference < 0 ? 1 : 0
      if difference < 0 { difference += 256 }
      result[index] = UInt8(difference)
    }
    return result
  }
}

/// The mdoc layer's public inputs (longfellow-zk `lib/circuits/mdoc/mdoc_zk.cc`,
/// `fill_public_inputs`; not in draft-google-cfrg-libzk). Field-agnostic: bits are 0 or 1, to
/// become elements of GF(2^128) (hash circuit) or P-256's base field (signature circuit).
package struct MdocZKBinding: Sendable {
  /// Bits of one attribute (`mdoc_witness.h`, fill_attribute; `getHashMacIndex`): 96 bytes,
  /// then two 8-bit lengths in version 7, one before it.
  package static func attributeBits(version: Int) -> Int {
    8 * 96 + (version < 7 ? 8 : 16)
  }
  /// `now`: 20 bytes, 8 bits each (`fill_bit_string`).
  package static let timeBits = 20 * 8
  /// Six MACs (e, dpkx, dpky: two GF(2^128) elements each), then the verifier's MAC key av.
  package static let macCount = 6
  /// Bytes of a GF(2^128) element, a MAC or av (little-endian, bit i = x^i).
  package static let macBytes = 16
  /// Where the MACs start among the signature circuit's public inputs (`kSigMacIndex`): after
  /// 1, pkX, pkY and e2.
  package static let signatureMacIndex = 4
  /// The signature circuit's public-input count: 1, pkX, pkY, e2, then 7 × 128 MAC/av bits.
  package static let signaturePublicInputs = signatureMacIndex + (macCount + 1) * 128

  /// The hash circuit's public inputs before the MACs, each 0 or 1: the constant 1, each
  /// attribute, then `now` (`fill_attributes`).
  package let hashPrefixBits: [UInt8]
  /// e2 (the device-signed digest), reduced into P-256's base field, 32 bytes big-endian.
  package let e2: [UInt8]
  /// The issuer key, 32 bytes big-endian each, below p (checked by the statement).
  package let issuerKeyX: [UInt8]
  /// The issuer key's y coordinate.
  package let issuerKeyY: [UInt8]

  /// The public inputs of `statement` in the layout of ZkSpec `version` (6 or 7).
  ///
  /// - Throws: `publicInputsInvalid` when an attribute does not fit version 6's 96 bytes.
  package init(_ statement: MdocZKStatement, version: Int = 7) throws(ZKError) {
    var bits: [UInt8] = [1]
    for attribute in statement.attributes {
      bits += try Self.attributeBits(attribute, version: version)
    }
    bits += Self.bitsLSBFirst(Array(statement.now.utf8))
    hashPrefixBits = bits
    e2 = MdocZKField.reduced(Self.e2Digest(statement))
    issuerKeyX = statement.issuerKeyX
    issuerKeyY = statement.issuerKeyY
  }

  /// Where the MACs start among the hash circuit's public inputs (`getHashMacIndex`).
  package static func hashMacIndex(attributes: Int, version: Int = 7) -> Int {
    1 + attributes * attributeBits(version: version) + timeBits
  }

  /// The hash circuit's public-input count: the prefix, 6 MACs and av as whole elements.
  package static func hashPublicInputs(attributes: Int, version: Int = 7) -> Int {
    hashMacIndex(attributes: attributes, version: version) + macCount + 1
  }

  /// One attribute's 784 bits (v7, `fill_attribute`): 32 bytes of the identifier's CBOR text
  /// (head and name, zero-padded), 64 bytes of the value (zero-padded), then the lengths of
  /// `<17> elementIdentifier <id>` and of `<12> elementValue <value>` as the circuit compares
  /// them, 8 bits each.
  static func attributeBits(_ attribute: MdocZKAttribute, version: Int = 7) throws(ZKError)
    -> [UInt8]
  {
    guard version >= 7 else { return try attributeBitsVersion6(attribute) }
    var identifier = CBOR.textString(attribute.identifier).encoded()
    identifier += [UInt8](repeating: 0, count: 32 - identifier.count)
    let value = attribute.cborValue + [UInt8](repeating: 0, count: 64 - attribute.cborValue.count)
    let idLength = UInt8(1 + 17 + 1 + attribute.identifier.utf8.count)
    let valueLength = UInt8(attribute.cborValue.count + 12 + 1)
    return bitsLSBFirst(identifier + value + [idLength, valueLength])
  }

  /// One attribute's 776 bits before version 7 (`fill_attribute`, version < 7): the identifier's
  /// CBOR text, `elementValue`'s, then the value, in 96 zero-padded bytes, then their length in
  /// 8 bits; longer than 96 bytes is refused (the C++ verifier's fill_public_inputs fails).
  static func attributeBitsVersion6(_ attribute: MdocZKAttribute) throws(ZKError) -> [UInt8] {
    let bytes =
      CBOR.textString(attribute.identifier).encoded() + CBOR.textString("elementValue").encoded()
      + attribute.cborValue
    guard bytes.count <= 96 else {
      throw ZKError(
        .publicInputsInvalid, "attribute \(attribute.identifier) is over 96 bytes (version 6)")
    }
    let padded = bytes + [UInt8](repeating: 0, count: 96 - bytes.count)
    return bitsLSBFirst(padded + [UInt8(bytes.count)])
  }

  /// Each byte as 8 bits, least significant first (`fill_byte`).
  package static func bitsLSBFirst(_ bytes: [UInt8]) -> [UInt8] {
    bytes.flatMap { byte in (0..<8).map { (byte >> $0) & 1 } }
  }

  /// e2 before reduction (`mdoc_witness.h`, compute_transcript_hash): SHA-256 of the COSE
  /// Sig_structure `["Signature1", h'A10126', h'', bstr(tag24(bstr(DeviceAuthentication)))]`
  /// (RFC 9052 §4.4), DeviceAuthentication = `["DeviceAuthentication", SessionTranscript,
  /// DocType, tag24(bstr({}))]` (ISO 18013-5 §9.1.3.4) with the transcript's bytes as given,
  /// read big-endian.
  package static func e2Digest(_ statement: MdocZKStatement) -> [UInt8] {
    let deviceAuthentication =
      [0x84] + CBOR.textString("DeviceAuthentication").encoded() + statement.sessionTranscript
      + CBOR.textString(statement.docType).encoded() + [0xD8, 0x18, 0x41, 0xA0]
    let payload = CBOR.tagged(24, .byteString(deviceAuthentication)).encoded()
    let sigStructure =
      [0x84] + CBOR.textString("Signature1").encoded()
      + CBOR.byteString([0xA1, 0x01, 0x26]).encoded()
      + CBOR.byteString([]).encoded() + CBOR.byteString(payload).encoded()
    return SHA256.hash(data: sigStructure)
  }
}

/// A Longfellow mdoc proof's bytes split at the mdoc layer (`mdoc_zk.cc`, run_mdoc_prover):
/// 6 MACs of 16 bytes, then the hash circuit's proof and the signature circuit's proof, each
/// as draft-google-cfrg-libzk serialises a proof; nothing may follow the second.
package struct MdocZKProofBytes: Sendable {
  /// The six MACs, 16 bytes each (GF(2^128), little-endian).
  package let macs: [[UInt8]]
  /// The two circuit proofs, back to back, read with the circuits' shapes.
  package let circuitProofs: ArraySlice<UInt8>

  /// - Throws: `ZKError` `proofTooLarge` over `ZKLimits.proofBytes`, `proofTruncated`
  ///   when the MACs are not all there.
  package init(_ proof: [UInt8]) throws(ZKError) {
    guard proof.count <= ZKLimits.proofBytes else {
      throw ZKError(
        .proofTooLarge, "the proof has \(proof.count) bytes; at most \(ZKLimits.proofBytes)")
    }
    let macBytes = MdocZKBinding.macCount * MdocZKBinding.macBytes
    guard proof.count > macBytes else {
      throw ZKError(.proofTruncated, "the proof ends within its MACs (\(proof.count) bytes)")
    }
    macs = (0..<MdocZKBinding.macCount).map { index in
      Array(proof[index * MdocZKBinding.macBytes..<(index + 1) * MdocZKBinding.macBytes])
    }
    circuitProofs = proof[macBytes...]
  }

  /// The signature circuit's MAC inputs: each MAC, then av, as 128 bits (bit i of the
  /// little-endian element first; `mac_reference.h`, fill_gf2k).
  package static func signatureMacBits(macs: [[UInt8]], av: [UInt8]) -> [UInt8] {
    (macs + [av]).flatMap { MdocZKBinding.bitsLSBFirst($0) }
  }
}
