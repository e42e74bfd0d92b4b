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
  /// of attributes). Builds the circuits' verifiers for this one proof; DCVerifier's
  /// `ZeroKnowledgeCircuit` keeps them for every proof of its circuit.
  ///
  /// - Throws: `ZKError`: `circuitMismatch` when the circuit is not one for this many attributes;
  ///   `proofTooLarge`, `proofTruncated`, `proofMalformed` or `proofTrailingBytes` when the bytes
  ///   are not 6 MACs and the two circuits' proofs; `merkleMismatch` or `ligeroCheckFailed` when
  ///   the proof does not prove the statement.
  public static func verify(
    proof: [UInt8], circuit: LongfellowCircuit, statement: MdocZKStatement
  ) throws(ZKError) {
    try verify(proof: proof, prepared: MdocZKPreparedCircuit(circuit), statement: statement)
  }

  /// Checks `proof` for `statement` with a circuit whose verifiers are already built.
  ///
  /// - Throws: as ``verify(proof:circuit:statement:)``.
  package static func verify(
    proof: [UInt8], prepared: MdocZKPreparedCircuit, statement: MdocZKStatement
  ) throws(ZKError) {
    let parts = try MdocZKProofBytes(proof)
    let count = statement.attributes.count
    guard count == prepared.attributes else {
      throw ZKError(
        .circuitMismatch, "the circuit is for \(prepared.attributes) attribute(s), not \(count)")
    }
    let hashVerifier = prepared.hashVerifier
    let signatureVerifier = prepared.signatureVerifier
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
    let binding = try MdocZKBinding(statement, version: prepared.settings.version)
    try hashVerifier.verify(
      hashProof, publicInputs: hashInputs(binding, macs: parts.macs, av: av),
      transcript: &transcript)
    try signatureVerifier.verify(
      signatureProof, publicInputs: signatureInputs(binding, macs: parts.macs, av: av),
      transcript: &transcript)
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

/// A Longfellow mdoc circuit pair with both circuits' verifiers built (each one's Ligero layout
/// and Reed–Solomon weights, `ZKVerifier`): the work that depends only on the circuit and the
/// proof settings, done once and reused for every proof of that circuit. An immutable value:
/// share it between tasks.
package struct MdocZKPreparedCircuit: Sendable {
  /// The circuit pair.
  package let circuit: LongfellowCircuit
  /// How many attributes its proofs disclose (from the hash circuit's public-input count).
  package let attributes: Int
  /// The hash circuit's verifier.
  let hashVerifier: ZKVerifier<GF2128>
  /// The signature circuit's verifier.
  let signatureVerifier: ZKVerifier<FieldP256>

  /// The settings its verifiers were built with.
  package let settings: MdocZKSettings

  /// Builds the verifiers of `circuit` with the ZkSpec version 7 settings for its attribute
  /// count (`zk_spec.cc`), or the given ones.
  ///
  /// - Throws: `circuitMismatch` when the circuit is not an mdoc circuit for 1 to 4 attributes
  ///   in the settings' version's layout; `circuitUnreadable` when the settings admit no Ligero
  ///   layout for it.
  package init(_ circuit: LongfellowCircuit, settings: MdocZKSettings? = nil) throws(ZKError) {
    let version = settings?.version ?? 7
    guard circuit.signature.npubIn == MdocZKBinding.signaturePublicInputs,
      let count = MdocZKLimits.attributes.first(where: {
        MdocZKBinding.hashPublicInputs(attributes: $0, version: version) == circuit.hash.npubIn
      })
    else {
      throw ZKError(
        .circuitMismatch,
        "the circuit is not a version \(version) mdoc circuit for 1 to 4 attributes")
    }
    let settings = settings ?? .version7(attributes: count)
    self.circuit = circuit
    self.settings = settings
    attributes = count
    hashVerifier = try ZKVerifier(circuit: circuit.hash, settings: settings.hash)
    signatureVerifier = try ZKVerifier(circuit: circuit.signature, settings: settings.signature)
  }
}

/// The settings of an mdoc circuit pair's two proofs: the ZkSpec version (it decides the
/// attributes' layout among the public inputs) and each proof's Ligero settings (the ZkSpec's
/// `block_enc_hash` and `block_enc_sig` with the version's rate and opened columns; `zk_spec.cc`,
/// `mdoc_zk.cc`).
package struct MdocZKSettings: Sendable, Equatable {
  /// The ZkSpec version, 6 or 7.
  package var version: Int
  /// The hash circuit's proof settings.
  package var hash: LigeroSettings
  /// The signature circuit's proof settings.
  package var signature: LigeroSettings

  /// The settings of ZkSpec `version` with its row lengths: version 7 (`kLigeroRatev7` 7,
  /// `kLigeroNreqv7` 132) or version 6 (`kLigeroRate` 4, `kLigeroNreq` 128); nil for others
  /// (version 5 has version 6's settings but no vector here to check them against).
  package static func version(_ version: Int, blockEncHash: Int, blockEncSig: Int)
    -> MdocZKSettings?
  {
    let (rate, nreq): (Int, Int)
    switch version {
    case 7: (rate, nreq) = (7, 132)
    case 6: (rate, nreq) = (4, 128)
    default: return nil
    }
    return MdocZKSettings(
      version: version,
      hash: LigeroSettings(rateInverse: rate, nreq: nreq, blockEnc: blockEncHash),
      signature: LigeroSettings(rateInverse: rate, nreq: nreq, blockEnc: blockEncSig))
  }

  /// The published version 7 circuits' settings for `attributes` (1 to 4): BLOCK_ENC of the
  /// hash proof by attribute count, 4096 for the signature proof.
  package static func version7(attributes: Int) -> MdocZKSettings {
    let blockEncHash = [4151, 4265, 4307, 4415][attributes - 1]
    return MdocZKSettings(
      version: 7,
      hash: LigeroSettings(rateInverse: 7, nreq: 132, blockEnc: blockEncHash),
      signature: LigeroSettings(rateInverse: 7, nreq: 132, blockEnc: 4096))
  }
}
