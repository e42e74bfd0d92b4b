extension MdocZKWitness {
  /// The values the six MACs bind (`ProverState.common`): e (the MSO digest the issuer
  /// signed), the device key's x and y, each reduced into P-256's base field, 32 bytes
  /// big-endian.
  package var macedValues: [[UInt8]] { common.map(\.bigEndian) }

  /// What `MdocZKProver` takes: the private parts of both vectors (after the public inputs;
  /// they do not depend on av), the keys and the MACed values.
  package func proverInput() -> MdocZKProverInput {
    let values = macedValues
    return MdocZKProverInput(
      hashPrivateInputs: Array(
        hashInputs[MdocZKBinding.hashPublicInputs(attributes: attributeCount)...]),
      signaturePrivateInputs: Array(signatureInputs[MdocZKBinding.signaturePublicInputs...]),
      macKeys: proverMACKeys, messageDigest: values[0], deviceKeyX: values[1], deviceKeyY: values[2]
    )
  }
}

extension MdocZKProver {
  /// A proof from the holder's mdoc alone (`mdoc_zk.cc` run_mdoc_prover): six random MAC keys
  /// (`MACReference::sample`), the witness of both circuits from the DeviceResponse, then the
  /// proof.
  ///
  /// - Parameter deviceResponse: a DeviceResponse whose documents[0] is the credential, with
  ///   the deviceSignature over the statement's SessionTranscript.
  /// - Throws: `ZKError`: the witness's refusals (`mdocMalformed`, `mdocUnsupported`,
  ///   `attributeNotFound`, `signatureInvalid`), then the prover's (`circuitMismatch`,
  ///   `witnessRejected` when the mdoc does not prove the statement, e.g. another value).
  package static func prove(
    circuit: LongfellowCircuit, statement: MdocZKStatement, deviceResponse: [UInt8],
    random: inout ZKRandom
  ) throws(ZKError) -> [UInt8] {
    let keys = (0..<MdocZKBinding.macCount).map { _ in GF2128.random(&random) }
    let witness = try MdocZKWitness(
      deviceResponse: deviceResponse, statement: statement, proverMACKeys: keys)
    return try prove(
      circuit: circuit, statement: statement, input: witness.proverInput(), random: &random)
  }
}
