/// One requested attribute's hash-circuit witness (`mdoc_witness.h`, MdocHashWitness
/// compute_witness, version 7): the item's tag-24 bytes hashed in 2 blocks, its digest's place in
/// the MSO, and where its digestID, random, elementIdentifier and elementValue entries lie in
/// the item (any order: v7 sorts them and passes the permutation).
struct MdocZKItemWitness {
  let padded: [UInt8]
  let blocks: [SHA256BlockWitness]
  let digestValueHead: Int
  let identifier: (offset: Int, length: Int)
  let value: (offset: Int, length: Int)
  /// i1, i2, i3, l0…l3 and the permutation (SaltedHash).
  let salted: [Int]
  let permutation: Int

  init(_ attribute: MdocZKAttribute, parsed: MdocZKParsedResponse, response: [UInt8])
    throws(ZKError)
  {
    let wanted = Array(attribute.identifier.utf8)
    // The first item with this identifier, in kSupportedNamespaces order (the statement names
    // no namespace; FullAttribute::operator==).
    guard
      let item = parsed.items.first(where: { item in
        item.identifierLength == wanted.count && item.identifierLength <= 32
          && Array(response[item.identifierStart..<item.identifierStart + wanted.count]) == wanted
      })
    else {
      throw ZKError(
        .attributeNotFound,
        "the mdoc discloses no \(attribute.identifier) in a namespace the circuit takes")
    }
    // tag_len = bstr length + 4 assumes `D8 18 58 LL`: a 24-to-255-byte item (mdoc_witness.h).
    let start = item.tagStart
    guard item.tagLength <= MdocZKWitnessLayout.maxItemLength, item.tagLength >= 28,
      Array(response[start..<start + 3]) == [0xD8, 0x18, 0x58]
    else {
      throw ZKError(
        .mdocUnsupported,
        "\(attribute.identifier) is \(item.tagLength) bytes tagged; the circuit takes 28 to \(MdocZKWitnessLayout.maxItemLength)"
      )
    }
    let hashed = try SHA256BlockWitness.witness(
      message: Array(response[start..<start + item.tagLength]),
      maxBlocks: MdocZKWitnessLayout.itemBlocks)
    padded = hashed.padded
    blocks = hashed.blocks
    digestValueHead = item.digestValueHead
    let idHead = item.identifierLength < 24 ? 1 : 2
    // "<17>elementIdentifier" + the identifier's head: 18 + head bytes before the name.
    identifier = (item.identifierStart - start - idHead - 18, 18 + item.identifierLength + idHead)
    // "<12>elementValue" then the requested value: its length is the statement's, not the item's.
    value = (item.valueKeyStart - start - 1, attribute.cborValue.count + 13)
    let triples = [
      (item.digestKeyStart - start - 1, item.digestLength, 0),
      (item.randomKeyStart - start - 1, item.randomLength, 1),
      (identifier.offset, identifier.length, 2),
      (value.offset, value.length, 3),
    ]
    guard triples.allSatisfy({ $0.0 >= 0 && $0.0 < 128 }) else {
      throw ZKError(
        .mdocUnsupported, "\(attribute.identifier)'s entries are not where the circuit looks")
    }
    let sorted = triples.sorted { $0.0 < $1.0 }
    salted = [
      sorted[1].0, sorted[2].0, sorted[3].0, sorted[0].1, sorted[1].1, sorted[2].1, sorted[3].1,
    ]
    // Each entry kind's rank in position order, 2 bits each, by kind.
    var permutation = 0
    for (rank, triple) in sorted.enumerated() { permutation |= rank << (2 * triple.2) }
    self.permutation = permutation
  }
}

extension MdocZKWitness {
  /// The hash circuit's vector (`mdoc_zk.cc` fill_witness, hash side).
  static func hashVector(
    binding: MdocZKBinding, mso: (padded: [UInt8], blocks: [SHA256BlockWitness], used: Int),
    parsed: MdocZKParsedResponse, items: [MdocZKItemWitness], common: [FieldP256], keys: [GF2128]
  ) -> [GF2128] {
    var out = binding.hashPrefixBits.map { $0 == 1 ? GF2128.one : .zero }
    out += [GF2128](repeating: .zero, count: 7)  // 6 MACs + av, set after the commitments
    for value in common {  // fill_bit_string of each value's 32 field bytes
      out += MdocZKBinding.bitsLSBFirst(fieldBytes(value)).map { $0 == 1 ? .one : .zero }
    }
    // MdocHashWitness::fill_witness: block count, the padded message after the prefix, blocks.
    appendNumber(mso.used, bits: 8, to: &out)
    for byte in mso.padded[MdocZKWitnessLayout.cose1Prefix.count...] {
      appendNumber(Int(byte), bits: 8, to: &out)
    }
    for block in mso.blocks { appendSHA(block, to: &out) }
    for position in [
      parsed.validFromKey, parsed.validUntilKey, parsed.deviceKeyInfoKey, parsed.valueDigestsKey,
    ] {
      appendNumber(position, bits: MdocZKWitnessLayout.indexBits, to: &out)
    }
    for item in items {
      for byte in item.padded { appendNumber(Int(byte), bits: 8, to: &out) }
      for block in item.blocks { appendSHA(block, to: &out) }
      let numbers =
        [
          item.digestValueHead, item.identifier.offset, item.identifier.length, item.value.offset,
          item.value.length,
        ] + item.salted
      for number in numbers { appendNumber(number, bits: MdocZKWitnessLayout.indexBits, to: &out) }
      appendNumber(item.permutation, bits: 8, to: &out)
    }
    out += keys  // MacGF2Witness: the prover's keys, pair by pair
    return out
  }

  static func appendNumber(_ value: Int, bits: Int, to out: inout [GF2128]) {
    for bit in 0..<bits { out.append((value >> bit) & 1 == 1 ? .one : .zero) }
  }

  /// A 32-bit word as 8 nibbles, least significant first, each as the bit-plucker point
  /// 2v − 15 in the subfield's injection (`bit_plucker_encoder.h`, `bit_plucker_constants.h`,
  /// kSHAPluckerBits = 4).
  static func appendWord(_ word: UInt32, to out: inout [GF2128]) {
    for nibble in 0..<8 {
      let v = Int((word >> UInt32(4 * nibble)) & 0xF)
      out.append(GF2128.injection(2 * v) - GF2128.injection(15))
    }
  }

  /// fill_sha: W16…W63, then e and a of each round interleaved, then the chaining value.
  static func appendSHA(_ block: SHA256BlockWitness, to out: inout [GF2128]) {
    for word in block.schedule { appendWord(word, to: &out) }
    for round in 0..<64 {
      appendWord(block.e[round], to: &out)
      appendWord(block.a[round], to: &out)
    }
    for word in block.chaining { appendWord(word, to: &out) }
  }

  /// The signature circuit's vector (`mdoc_zk.cc` fill_witness, signature side;
  /// MdocSignatureWitness::fill_witness).
  static func signatureVector(
    binding: MdocZKBinding, statement: MdocZKStatement, parsed: MdocZKParsedResponse,
    digest: [UInt8],
    deviceKey: (x: FieldP256, y: FieldP256), common: [FieldP256], keys: [GF2128]
  ) throws(ZKError) -> [FieldP256] {
    let issuerKey = (
      x: FieldP256.reducing(bigEndian: binding.issuerKeyX),
      y: FieldP256.reducing(bigEndian: binding.issuerKeyY)
    )
    var out: [FieldP256] = [
      .one, issuerKey.x, issuerKey.y, FieldP256.reducing(bigEndian: binding.e2),
    ]
    out += [FieldP256](repeating: .zero, count: 7 * 128)  // MAC and av bits, set later
    out += common
    guard
      let issuer = ECDSAWitness(
        publicKey: issuerKey, e: digest, r: Array(parsed.issuerSignature[0..<32]),
        s: Array(parsed.issuerSignature[32...]))
    else {
      throw ZKError(
        .signatureInvalid,
        "the issuer's signature over the MSO does not verify under the statement's key")
    }
    guard
      let device = ECDSAWitness(
        publicKey: deviceKey, e: MdocZKBinding.e2Digest(statement),
        r: Array(parsed.deviceSignature[0..<32]),
        s: Array(parsed.deviceSignature[32...]))
    else {
      throw ZKError(
        .signatureInvalid, "the device signature does not verify over the statement's transcript")
    }
    issuer.append(to: &out)
    device.append(to: &out)
    // MacWitness<Fp256>: the key pair, then the value's two halves, 128 bits each packed
    // 2 bits per element as 2v − 3 (bit plucker, LOGN = 2).
    for index in 0..<3 {
      for element in [keys[2 * index], keys[2 * index + 1]] + halves(common[index]) {
        for pair in 0..<64 {
          let v = bit(element, 2 * pair) + 2 * bit(element, 2 * pair + 1)
          out.append(FieldP256(2 * v) - FieldP256(3))
        }
      }
    }
    return out
  }
}
