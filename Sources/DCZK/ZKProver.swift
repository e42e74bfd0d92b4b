/// Proves statements of one circuit (draft-google-cfrg-libzk §"Zero-knowledge proofs"; the C++
/// `ZkProver`): `commit` lays out the private inputs and the sumcheck pads in a Ligero tableau
/// and commits to it; `prove` runs the padded sumcheck on the transcript, replays the verifier
/// on a copy to get the constraints it will check, and answers them with Ligero. The proof is
/// laid out as `ZKVerifier.readProof` reads it. Applications that tie several circuits together
/// (the mdoc layer) interleave these steps on one transcript as the verifier does.
package struct ZKProver<F: ZKField>: Sendable {
  package let circuit: ZKCircuit<F>
  package let parameters: LigeroParameters

  /// A commitment to one witness, kept until the proof is made.
  package struct Commitment {
    let pad: SumcheckPad<F>
    let ligero: LigeroProver<F>
    /// The Merkle root, the prover's first message.
    package var root: [UInt8] { ligero.root }
  }

  /// The prover for `circuit` with the deployment's Ligero settings (the layout
  /// `ZKVerifier` uses).
  package init(circuit: ZKCircuit<F>, settings: LigeroSettings) throws(ZKError) {
    self.circuit = circuit
    parameters = try ZKVerifier(circuit: circuit, settings: settings).parameters
  }

  /// Commits to the private inputs (the circuit's inputs after the public ones) and fresh
  /// sumcheck pads (the C++ `ZkProver::commit`).
  ///
  /// - Throws: `publicInputsInvalid` when the count is not the circuit's.
  @_specialize(where F == GF2128)
  @_specialize(where F == FieldP256)
  package func commit(privateInputs: [F], random: inout ZKRandom) throws(ZKError) -> Commitment {
    guard privateInputs.count == circuit.nwitness else {
      throw ZKError(
        .publicInputsInvalid,
        "the circuit takes \(circuit.nwitness) private inputs, not \(privateInputs.count)")
    }
    let pad = SumcheckPad(circuit: circuit, random: &random)
    let witnesses = privateInputs + pad.witnesses
    // The quadratic constraints: each layer's claim pads c0 * c1 = their product (sumcheck
    // §"Transcript encryption"), at the indices `SumcheckVerifier` names.
    var quadratic: [(x: Int, y: Int, z: Int)] = []
    var base = circuit.nwitness
    for layer in circuit.layers {
      let c0 = base + 4 * layer.logw
      quadratic.append((c0, c0 + 1, c0 + 2))
      base += 4 * layer.logw + 3
    }
    // The C++ SUBFIELD_BOUNDARY, rebased to the private inputs.
    let boundary = max(0, circuit.subfieldBoundary - circuit.npubIn)
    let ligero = LigeroProver(
      parameters: parameters, witnesses: witnesses, subfieldBoundary: boundary,
      quadratic: quadratic, random: &random)
    return Commitment(pad: pad, ligero: ligero)
  }

  /// The proof for `commitment` of `inputs` (the public inputs, then the committed private
  /// ones), on `transcript` positioned where the verifier's `verify` starts (after the
  /// commitment was written); leaves the transcript where the verifier's ends.
  ///
  /// - Throws: `publicInputsInvalid` when the count is not the circuit's; `witnessRejected`
  ///   when the inputs do not satisfy the circuit.
  @_specialize(where F == GF2128)
  @_specialize(where F == FieldP256)
  package func prove(
    _ commitment: Commitment, inputs: [F], transcript: inout ZKTranscript
  ) throws(ZKError) -> ZKProof<F> {
    guard inputs.count == circuit.ninputs else {
      throw ZKError(
        .publicInputsInvalid, "the circuit takes \(circuit.ninputs) inputs, not \(inputs.count)")
    }
    guard let wires = SumcheckProver<F>.evaluate(circuit: circuit, inputs: inputs) else {
      throw ZKError(.witnessRejected, "the inputs do not satisfy the circuit")
    }
    let publicInputs = Array(inputs[0..<circuit.npubIn])
    // Draft §"Special rules for the first message", as `ZKVerifier.verify` writes it.
    transcript.write(bytes: circuit.id)
    for input in publicInputs { transcript.write(element: input) }
    transcript.write(element: F.zero)
    transcript.writeZeros(circuit.nterms)
    var verifierSide = transcript.copy()
    let sumcheck = SumcheckProver<F>.prove(
      circuit: circuit, wires: wires, pad: commitment.pad, transcript: &transcript)
    // The verifier's constraints on the padded proof; the copy ends where `transcript` does.
    let constraints = SumcheckVerifier<F>.constraints(
      circuit: circuit, publicInputs: publicInputs, proof: sumcheck, transcript: &verifierSide)
    let ligero = try commitment.ligero.prove(constraints: constraints, transcript: &transcript)
    return ZKProof(root: commitment.root, sumcheck: sumcheck, ligero: ligero)
  }

  /// A proof of this circuit alone for `inputs` (public, then private), on a transcript that
  /// starts with `sessionID` (the shape `ZKVerifier.verify(proof:publicInputs:transcript:)`
  /// checks).
  package func prove(inputs: [F], sessionID: [UInt8], random: inout ZKRandom) throws(ZKError)
    -> [UInt8]
  {
    guard inputs.count == circuit.ninputs else {
      throw ZKError(
        .publicInputsInvalid, "the circuit takes \(circuit.ninputs) inputs, not \(inputs.count)")
    }
    let commitment = try commit(privateInputs: Array(inputs[circuit.npubIn...]), random: &random)
    var transcript = ZKTranscript(sessionID: sessionID)
    transcript.write(bytes: commitment.root)
    let proof = try prove(commitment, inputs: inputs, transcript: &transcript)
    var out: [UInt8] = []
    proof.write(to: &out)
    return out
  }
}

extension ZKProof {
  init(root: [UInt8], sumcheck: SumcheckProof<F>, ligero: LigeroProof<F>) {
    self.root = root
    self.sumcheck = sumcheck
    self.ligero = ligero
  }

  /// Draft §"Serializing a Sequence of proofs": the root, the sumcheck transcript, the Ligero
  /// proof.
  package func write(to out: inout [UInt8]) {
    out += root
    sumcheck.write(to: &out)
    ligero.write(to: &out)
  }
}
