/// Verifies Longfellow zero-knowledge proofs over an mdoc (longfellow-libzk-v1): the holder
/// shows that an mdoc signed by the statement's issuer key, bound to a device key that signed the
/// session, holds the statement's attributes and is valid at `now`, revealing nothing else.
///
/// The mdoc layer is not in draft-google-cfrg-libzk; it follows longfellow-zk
/// `lib/circuits/mdoc/mdoc_zk.cc` (`run_mdoc_verifier`) at commit 8aeca544: two circuits (SHA-256
/// and CBOR over GF(2^128), ECDSA over P-256's base field) proved on one Fiat–Shamir transcript,
/// tied by MACs of the values they share.
public enum MdocZKVerifier {
  /// Checks `proof` for `statement` with `circuit` (chosen by its id for the statement's number
  /// of attributes).
  ///
  /// - Throws: `ZKError`: `circuitMismatch` when the circuit is not one for this many attributes;
  ///   `proofTooLarge`, `proofTruncated`, `proofMalformed` or `proofTrailingBytes` when the bytes
  ///   are not 6 MACs and the two circuits' proofs; `merkleMismatch` or `ligeroCheckFailed` when
  ///   the proof does not prove the statement.
  public static func verify(
    proof: [UInt8], circuit: LongfellowCircuit, statement: MdocZKStatement
  ) throws(ZKError) {
    let parts = try MdocZKProofBytes(proof)
    let count = statement.attributes.count
    guard circuit.hash.npubIn == MdocZKBinding.hashPublicInputs(attributes: count),
      circuit.signature.npubIn == MdocZKBinding.signaturePublicInputs
    else {
      throw ZKError(.circuitMismatch, "the circuit is not the one for \(count) attribute(s)")
    }
    let (hashSettings, signatureSettings) = settings(attributes: count)
    let hashVerifier = try ZKVerifier(circuit: circuit.hash, settings: hashSettings)
    let signatureVerifier = try ZKVerifier(circuit: circuit.signature, settings: signatureSettings)
    // [6 MACs][hash proof][signature proof], nothing after (`run_mdoc_verifier`).
    var offset = MdocZKBinding.macCount * MdocZKBinding.macBytes
    let hashProof = try hashVerifier.readProof(proof, offset: &offset)
    let signatureProof = try signatureVerifier.readProof(proof, offset: &offset)
    guard offset == proof.count else {
      throw ZKError(.proofTrailingBytes, "\(proof.count - offset) bytes follow the proof")
    }
    // The session transcript seeds Fiat–Shamir; both commitments, then the verifier's MAC key
    // av (`generate_mac_key`: 16 bytes of the stream as a GF(2^128) element).
    var transcript = ZKTranscript(sessionID: statement.sessionTranscript)
    hashVerifier.receiveCommitment(hashProof, transcript: &transcript)
    signatureVerifier.receiveCommitment(signatureProof, transcript: &transcript)
    let av = transcript.bytes(MdocZKBinding.macBytes)
    let binding = MdocZKBinding(statement)
    try hashVerifier.verify(
      hashProof, publicInputs: hashInputs(binding, macs: parts.macs, av: av),
      transcript: &transcript)
    try signatureVerifier.verify(
      signatureProof, publicInputs: signatureInputs(binding, macs: parts.macs, av: av),
      transcript: &transcript)
  }

  /// The ZkSpec version 7 settings (`zk_spec.cc`): inverse rate 7, 132 opened columns, the
  /// hash circuit's BLOCK_ENC by attribute count, 4096 for the signature circuit.
  static func settings(attributes: Int) -> (hash: LigeroSettings, signature: LigeroSettings) {
    let blockEncHash = [4151, 4265, 4307, 4415][attributes - 1]
    return (
      LigeroSettings(rateInverse: 7, nreq: 132, blockEnc: blockEncHash),
      LigeroSettings(rateInverse: 7, nreq: 132, blockEnc: 4096)
    )
  }

  /// The hash circuit's public inputs: the prefix bits, then the 6 MACs and av as elements.
  static func hashInputs(_ binding: MdocZKBinding, macs: [[UInt8]], av: [UInt8]) -> [GF2128] {
    var inputs = binding.hashPrefixBits.map { $0 == 1 ? GF2128.one : GF2128.zero }
    for mac in macs + [av] {
      // Every 16 bytes are a GF(2^128) element.
      inputs.append(GF2128.read(mac, at: 0) ?? .zero)
    }
    return inputs
  }

  /// The signature circuit's public inputs: 1, pkX, pkY, e2, then the MACs and av bit by bit.
  static func signatureInputs(_ binding: MdocZKBinding, macs: [[UInt8]], av: [UInt8])
    -> [FieldP256]
  {
    // The statement checked the coordinates are below p and e2 is reduced: each reads.
    func element(_ bigEndian: [UInt8]) -> FieldP256 {
      FieldP256.read(bigEndian.reversed(), at: 0) ?? .zero
    }
    let bits = MdocZKProofBytes.signatureMacBits(macs: macs, av: av)
    return [
      .one, element(binding.issuerKeyX), element(binding.issuerKeyY), element(binding.e2),
    ] + bits.map { $0 == 1 ? FieldP256.one : FieldP256.zero }
  }
}
