/// The Ligero parameters a deployment fixes besides the circuit (longfellow-zk's ZkSpec: the
/// inverse rate, the number of opened columns and the row length).
package struct LigeroSettings: Sendable, Equatable {
  /// Inverse rate of the code (4 before mdoc version 7, 7 in version 7).
  package var rateInverse: Int
  /// Opened columns (128 before version 7, 132 in version 7).
  package var nreq: Int
  /// Row length BLOCK_ENC (the ZkSpec's block_enc_hash / block_enc_sig).
  package var blockEnc: Int

  package init(rateInverse: Int, nreq: Int, blockEnc: Int) {
    self.rateInverse = rateInverse
    self.nreq = nreq
    self.blockEnc = blockEnc
  }
}

/// One circuit's proof (draft-google-cfrg-libzk §"Serializing a Sequence of proofs", `Proof`,
/// as the C++ `ZkProof` writes it): the commitment root, the padded sumcheck transcript, the
/// Ligero proof.
package struct ZKProof<F: ZKField>: Sendable {
  /// The Merkle root committing to the witnesses and pads.
  package var root: [UInt8]
  package var sumcheck: SumcheckProof<F>
  package var ligero: LigeroProof<F>

  /// Reads the proof of `circuit` from `bytes` at `offset`, advancing it.
  package init(
    _ bytes: [UInt8], offset: inout Int, circuit: ZKCircuit<F>, parameters: LigeroParameters
  ) throws(ZKError) {
    var reader = ByteReader(bytes, offset: offset)
    guard let root = reader.take(32) else {
      throw ZKError(.proofTruncated, "the proof ends before its commitment")
    }
    guard let sumcheck = SumcheckProof(reading: &reader, circuit: circuit) else {
      throw reader.remaining < 32
        ? ZKError(.proofTruncated, "the proof ends inside its sumcheck transcript")
        : ZKError(.proofMalformed, "the sumcheck transcript is not as serialized")
    }
    self.root = root
    self.sumcheck = sumcheck
    ligero = try LigeroProof(reading: &reader, parameters: parameters)
    offset = reader.offset
  }
}

/// Verifies proofs of one circuit (the C++ `ZkVerifier`): `receiveCommitment` writes the root
/// to the transcript, `verify` runs the sumcheck verifier and Ligero on it. Applications that
/// tie several circuits together (the mdoc layer) interleave these steps on one transcript.
package struct ZKVerifier<F: ZKField>: Sendable {
  package let circuit: ZKCircuit<F>
  package let parameters: LigeroParameters
  /// The Reed–Solomon weights of the layout, computed once.
  package let weights: LigeroWeights<F>

  /// The verifier for `circuit` with the deployment's Ligero settings; throws
  /// `circuitUnreadable` when they admit no tableau layout.
  @_specialize(where F == GF2128)
  @_specialize(where F == FieldP256)
  package init(circuit: ZKCircuit<F>, settings: LigeroSettings) throws(ZKError) {
    var pad = 0
    for layer in circuit.layers { pad += 4 * layer.logw + 3 }
    guard
      let parameters = LigeroParameters(
        nw: circuit.nwitness + pad, nq: circuit.layers.count,
        rateInverse: settings.rateInverse, nreq: settings.nreq, blockEnc: settings.blockEnc,
        subfieldBits: 8 * F.subfieldByteCount)
    else {
      throw ZKError(.circuitUnreadable, "the Ligero settings admit no layout for this circuit")
    }
    self.circuit = circuit
    self.parameters = parameters
    weights = LigeroWeights(parameters)
  }

  /// Reads a proof of this circuit at `offset`.
  @_specialize(where F == GF2128)
  @_specialize(where F == FieldP256)
  package func readProof(_ bytes: [UInt8], offset: inout Int) throws(ZKError) -> ZKProof<F> {
    try ZKProof(bytes, offset: &offset, circuit: circuit, parameters: parameters)
  }

  /// The commitment, the prover's first message.
  package func receiveCommitment(_ proof: ZKProof<F>, transcript: inout ZKTranscript) {
    transcript.write(bytes: proof.root)
  }

  /// Checks `proof` for `publicInputs` (draft §"Special rules for the first message": the
  /// circuit id, the public inputs, a zero output and one zero byte per quad, then sumcheck
  /// and Ligero).
  @_specialize(where F == GF2128)
  @_specialize(where F == FieldP256)
  package func verify(
    _ proof: ZKProof<F>, publicInputs: [F], transcript: inout ZKTranscript
  ) throws(ZKError) {
    guard publicInputs.count == circuit.npubIn else {
      throw ZKError(
        .publicInputsInvalid,
        "the circuit takes \(circuit.npubIn) public inputs, not \(publicInputs.count)")
    }
    transcript.write(bytes: circuit.id)
    for input in publicInputs { transcript.write(element: input) }
    transcript.write(element: F.zero)
    transcript.writeZeros(circuit.nterms)
    let constraints = SumcheckVerifier<F>.constraints(
      circuit: circuit, publicInputs: publicInputs, proof: proof.sumcheck,
      transcript: &transcript)
    try LigeroVerifier<F>.verify(
      parameters: parameters, weights: weights, root: proof.root, proof: proof.ligero,
      constraints: constraints,
      transcript: &transcript)
  }

  /// Reads and verifies one proof of this circuit alone: `transcript` starts with the session
  /// id, then the commitment, then `verify`; nothing may follow the proof.
  package func verify(proof bytes: [UInt8], publicInputs: [F], transcript: inout ZKTranscript)
    throws(ZKError)
  {
    guard bytes.count <= ZKLimits.proofBytes else {
      throw ZKError(.proofTooLarge, "the proof is larger than \(ZKLimits.proofBytes) bytes")
    }
    var offset = 0
    let proof = try readProof(bytes, offset: &offset)
    guard offset == bytes.count else {
      throw ZKError(.proofTrailingBytes, "\(bytes.count - offset) bytes follow the proof")
    }
    receiveCommitment(proof, transcript: &transcript)
    try verify(proof, publicInputs: publicInputs, transcript: &transcript)
  }
}
