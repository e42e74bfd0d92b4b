/// What the holder proves with, besides the statement: both circuits' private inputs (as the
/// mdoc witness fills them, `mdoc_zk.cc` fill_witness), the six MAC keys the witness holds, and
/// the three values the MACs cover (`ProverState.common`: the MSO digest e the issuer signed,
/// the device key's coordinates).
package struct MdocZKProverInput: Sendable {
  /// The hash circuit's private inputs (its inputs after the public ones).
  package var hashPrivateInputs: [GF2128]
  /// The signature circuit's private inputs.
  package var signaturePrivateInputs: [FieldP256]
  /// The prover's MAC keys ap[0..<6] (pairs for e2, the device key's x, its y), which the
  /// private inputs of both circuits hold.
  package var macKeys: [GF2128]
  /// e, the MSO digest as an element of P-256's base field, 32 bytes big-endian.
  package var messageDigest: [UInt8]
  /// The device key's coordinates, 32 bytes big-endian each.
  package var deviceKeyX: [UInt8]
  package var deviceKeyY: [UInt8]

  package init(
    hashPrivateInputs: [GF2128], signaturePrivateInputs: [FieldP256], macKeys: [GF2128],
    messageDigest: [UInt8], deviceKeyX: [UInt8], deviceKeyY: [UInt8]
  ) {
    self.messageDigest = messageDigest
    self.hashPrivateInputs = hashPrivateInputs
    self.signaturePrivateInputs = signaturePrivateInputs
    self.macKeys = macKeys
    self.deviceKeyX = deviceKeyX
    self.deviceKeyY = deviceKeyY
  }
}

/// Makes Longfellow zero-knowledge proofs over an mdoc (longfellow-libzk-v1), the mirror of
/// `MdocZKVerifier`: the proof bytes are split and checked there exactly as they are made here.
///
/// Follows longfellow-zk `lib/circuits/mdoc/mdoc_zk.cc` (`run_mdoc_prover`) at commit 8aeca544
/// (the mdoc layer is not in draft-google-cfrg-libzk): commit to the hash circuit's witness, then
/// the signature circuit's, on one transcript seeded with the SessionTranscript; draw the
/// verifier's MAC key av; MAC e and the device key's coordinates; prove the hash circuit, then
/// the signature circuit.
package enum MdocZKProver {
  /// The proof bytes: 6 MACs, the hash circuit's proof, the signature circuit's proof.
  ///
  /// - Throws: `ZKError`: `circuitMismatch` when the circuit is not one for this many
  ///   attributes; `publicInputsInvalid` when a private input vector or the keys have the wrong
  ///   size; `witnessRejected` when the inputs do not satisfy a circuit (the mdoc does not
  ///   prove the statement).
  package static func prove(
    circuit: LongfellowCircuit, statement: MdocZKStatement, input: MdocZKProverInput,
    random: inout ZKRandom
  ) throws(ZKError) -> [UInt8] {
    // The circuit's attribute count and ZkSpec settings, as the verifier decides them.
    let prepared = try MdocZKPreparedCircuit(circuit)
    let count = statement.attributes.count
    guard count == prepared.attributes else {
      throw ZKError(
        .circuitMismatch, "the circuit is for \(prepared.attributes) attribute(s), not \(count)")
    }
    let values = [input.messageDigest, input.deviceKeyX, input.deviceKeyY]
    guard input.macKeys.count == MdocZKBinding.macCount, values.allSatisfy({ $0.count == 32 })
    else {
      throw ZKError(.publicInputsInvalid, "six MAC keys and three 32-byte values are needed")
    }
    let hashProver = try ZKProver(circuit: circuit.hash, settings: prepared.settings.hash)
    let signatureProver = try ZKProver(
      circuit: circuit.signature, settings: prepared.settings.signature)
    let hashCommitment = try hashProver.commit(
      privateInputs: input.hashPrivateInputs, random: &random)
    let signatureCommitment = try signatureProver.commit(
      privateInputs: input.signaturePrivateInputs, random: &random)
    var transcript = ZKTranscript(sessionID: statement.sessionTranscript)
    transcript.write(bytes: hashCommitment.root)
    transcript.write(bytes: signatureCommitment.root)
    let av = transcript.bytes(MdocZKBinding.macBytes)
    let binding = try MdocZKBinding(statement, version: prepared.settings.version)
    let macs = macs(of: values, keys: input.macKeys, av: av)
    // The public inputs exactly as the verifier builds them (`update_macs` fills the same slots).
    let hashInputs =
      MdocZKVerifier.hashInputs(binding, macs: macs, av: av) + input.hashPrivateInputs
    let signatureInputs =
      MdocZKVerifier.signatureInputs(binding, macs: macs, av: av) + input.signaturePrivateInputs
    let hashProof = try hashProver.prove(
      hashCommitment, inputs: hashInputs, transcript: &transcript)
    let signatureProof = try signatureProver.prove(
      signatureCommitment, inputs: signatureInputs, transcript: &transcript)
    // [6 MACs][hash proof][signature proof] (`run_mdoc_prover`).
    var out = macs.flatMap { $0 }
    hashProof.write(to: &out)
    signatureProof.write(to: &out)
    return out
  }

  /// mac[2i + j] = (av + ap[2i + j]) * m_j, m_0 and m_1 the low and high 16 bytes of value i's
  /// little-endian field bytes (`mac_reference.h` MACReference::compute, `compute_macs`).
  static func macs(of values: [[UInt8]], keys: [GF2128], av: [UInt8]) -> [[UInt8]] {
    let a = GF2128.read(av, at: 0) ?? .zero
    var out: [[UInt8]] = []
    for (i, bigEndian) in values.enumerated() {
      let littleEndian = Array(bigEndian.reversed())
      for j in 0..<2 {
        let m = GF2128.read(littleEndian, at: 16 * j) ?? .zero
        out.append(((a + keys[2 * i + j]) * m).bytes)
      }
    }
    return out
  }
}
