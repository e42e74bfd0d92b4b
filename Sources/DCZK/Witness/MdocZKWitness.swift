/// Sizes of the v7 circuits' witness (longfellow-zk `lib/circuits/mdoc/mdoc_constants.h`).
enum MdocZKWitnessLayout {
  /// kMaxSHABlocks: the MSO's Sig_structure is hashed in at most 40 blocks.
  static let msoBlocks = 40
  /// Each disclosed IssuerSignedItem (its tag-24 bytes) is hashed in 2 blocks.
  static let itemBlocks = 2
  /// kCborIndexBits: positions in the MSO are 12-bit numbers.
  static let indexBits = 12
  /// kCose1Prefix: `["Signature1", h'A10126', h'', ` then a bstr head with a 2-byte length.
  static let cose1Prefix: [UInt8] = [
    0x84, 0x6A, 0x53, 0x69, 0x67, 0x6E, 0x61, 0x74, 0x75, 0x72, 0x65, 0x31, 0x43, 0xA1, 0x01, 0x26,
    0x40,
    0x59,
  ]
  /// kMaxMsoLen + 1: the tagged MSO must be shorter (40 blocks less padding and prefix).
  static let maxTaggedMSOLength = msoBlocks * 64 - 9 - cose1Prefix.count
  /// An item's tag-24 bytes fit 2 blocks with SHA-256's 9 bytes of padding.
  static let maxItemLength = itemBlocks * 64 - 9
}

/// The inputs of the two Longfellow mdoc circuits for one mdoc and statement, as longfellow-zk's
/// prover fills them (`lib/circuits/mdoc/mdoc_zk.cc` fill_witness, `mdoc_witness.h`
/// MdocHashWitness / MdocSignatureWitness): the whole input vector of each circuit, public
/// prefix first, with the six MAC slots and av zero until ``setMACs(verifierKey:)``.
package struct MdocZKWitness: Sendable {
  /// The hash circuit's inputs (GF(2^128)).
  package private(set) var hashInputs: [GF2128]
  /// The signature circuit's inputs (P-256's base field).
  package private(set) var signatureInputs: [FieldP256]
  /// The prover's MAC keys ap[0…5]: pairs for e, the device key's x, its y.
  package let proverMACKeys: [GF2128]
  /// e (the MSO's digest), dpkx, dpky in P-256's base field: the values the MACs bind.
  let common: [FieldP256]
  let attributeCount: Int

  /// - Parameters:
  ///   - deviceResponse: a DeviceResponse (ISO 18013-5 §8.3.2.1.2.2) whose documents[0] is the
  ///     credential, with its deviceSignature over the statement's transcript.
  ///   - proverMACKeys: six random GF(2^128) elements (`MACReference::sample`).
  /// - Throws: `ZKError` `mdocMalformed` when a part the circuit reads is missing or not CBOR
  ///   as upstream reads it; `mdocUnsupported` when the mdoc is outside what the circuit takes
  ///   (sizes, shapes, docType other than the statement's); `attributeNotFound`;
  ///   `signatureInvalid` when the issuer's or the device's signature does not verify.
  package init(deviceResponse: [UInt8], statement: MdocZKStatement, proverMACKeys: [GF2128])
    throws(ZKError)
  {
    precondition(proverMACKeys.count == 6, "six MAC keys")
    let parsed = try MdocZKParsedResponse(deviceResponse)
    guard parsed.docType == Array(statement.docType.utf8) else {
      throw ZKError(.mdocUnsupported, "the mdoc's docType is not the statement's")
    }
    let signed = parsed.signedMSO(deviceResponse)
    let mso = try SHA256BlockWitness.witness(
      message: signed, maxBlocks: MdocZKWitnessLayout.msoBlocks)
    let digest = mso.blocks[mso.used - 1].chaining.flatMap { word in
      (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) }
    }
    let deviceKey = (
      x: FieldP256.reducing(bigEndian: parsed.deviceKeyX),
      y: FieldP256.reducing(bigEndian: parsed.deviceKeyY)
    )
    common = [FieldP256.reducing(bigEndian: digest), deviceKey.x, deviceKey.y]
    self.proverMACKeys = proverMACKeys
    attributeCount = statement.attributes.count
    let items = try statement.attributes.map { attribute throws(ZKError) in
      try MdocZKItemWitness(attribute, parsed: parsed, response: deviceResponse)
    }
    // The v7 public-input layout, as the verifier builds it (MdocZKBinding).
    let binding = try MdocZKBinding(statement)
    hashInputs = Self.hashVector(
      binding: binding, mso: mso, parsed: parsed, items: items, common: common,
      keys: proverMACKeys)
    signatureInputs = try Self.signatureVector(
      binding: binding, statement: statement, parsed: parsed, digest: digest, deviceKey: deviceKey,
      common: common,
      keys: proverMACKeys)
  }

  /// The six MACs for the verifier's key av (`mdoc_zk.cc` compute_macs, `mac_reference.h`):
  /// MAC(2i+j) = (av + ap(2i+j)) · half j of the i-th common value's 32 field bytes.
  package func macs(verifierKey av: GF2128) -> [GF2128] {
    (0..<6).map { index in
      let halves = Self.halves(common[index / 2])
      return (av + proverMACKeys[index]) * halves[index % 2]
    }
  }

  /// Puts the MACs and av into both vectors (`update_macs`): whole elements in the hash
  /// circuit, 128 bits each in the signature circuit. Returns the MACs.
  @discardableResult
  package mutating func setMACs(verifierKey av: GF2128) -> [GF2128] {
    let values = macs(verifierKey: av) + [av]
    let hashIndex = MdocZKBinding.hashMacIndex(attributes: attributeCount)
    for (offset, value) in values.enumerated() {
      hashInputs[hashIndex + offset] = value
      for bit in 0..<128 {
        signatureInputs[MdocZKBinding.signatureMacIndex + 128 * offset + bit] =
          Self.bit(value, bit) == 1 ? .one : .zero
      }
    }
    return Array(values.prefix(6))
  }

  static func bit(_ value: GF2128, _ index: Int) -> UInt64 {
    index < 64 ? (value.lo >> UInt64(index)) & 1 : (value.hi >> UInt64(index - 64)) & 1
  }

  /// A P-256 field element's 32 field bytes (little-endian) as two GF(2^128) elements.
  static func halves(_ value: FieldP256) -> [GF2128] {
    var bytes: [UInt8] = []
    value.write(to: &bytes)
    return [GF2128.read(bytes, at: 0)!, GF2128.read(bytes, at: 16)!]
  }

  static func fieldBytes(_ value: FieldP256) -> [UInt8] {
    var bytes: [UInt8] = []
    value.write(to: &bytes)
    return bytes
  }
}
