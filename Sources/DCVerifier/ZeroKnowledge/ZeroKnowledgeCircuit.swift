import DCEncoding
public import DCMdoc
package import DCZK

/// A Longfellow circuit a verifier verifies proofs with, and the `ZkSystemSpec` it asks wallets
/// for (ISO 18013-5 2nd edition §10.2.7; parameters as longfellow-zk's `zk-system-spec.md`
/// defines them).
public struct ZeroKnowledgeCircuit: Sendable {
  /// The spec a request names this circuit by.
  public let spec: ZkSystemSpec
  /// The circuit pair with its two proof verifiers built once for the spec's proof settings
  /// (Ligero layout, Reed–Solomon weights), reused for every proof; nil for a version whose
  /// settings DCZK does not have.
  package let prepared: MdocZKPreparedCircuit?
  /// The circuit pair, read and identified by DCZK.
  package let longfellow: LongfellowCircuit

  /// The largest circuit file accepted (published ones are 210 to 340 KB compressed).
  package static let maxCompressedLength = 16 << 20

  /// Reads a circuit file (zstd-compressed, as published) and names it by the id DCZK computes
  /// from it (the draft's circuit ids, SHA-256 over the pair: `circuit_hash`); its parameters are
  /// those Google publishes for that id (longfellow-zk `lib/circuits/mdoc/zk_spec.cc`
  /// `kZkSpecs`).
  ///
  /// - Throws: `invalidRequest` for an empty, oversized or unreadable file, or a circuit whose
  ///   id names no published circuit.
  public init(compressed: [UInt8]) throws(VerifierError) {
    guard !compressed.isEmpty, compressed.count <= Self.maxCompressedLength else {
      throw VerifierError(
        .invalidRequest,
        "a circuit file must be 1 to \(Self.maxCompressedLength) bytes, not \(compressed.count)")
    }
    let circuit: LongfellowCircuit
    do {
      circuit = try LongfellowCircuit(compressed: compressed)
    } catch {
      throw VerifierError(
        .invalidRequest, "not a Longfellow circuit: \(error.reason)", underlying: error)
    }
    let id = Hex.encode(circuit.id)
    guard let spec = LongfellowCircuits.published.first(where: { $0.circuitHash == id }) else {
      throw VerifierError(.invalidRequest, "\(id) is not a published Longfellow circuit id")
    }
    self.spec = spec
    longfellow = circuit
    prepared = try Self.prepare(circuit, spec: spec)
  }

  /// The circuit's verifiers with the proof settings of its spec's version (`zk_spec.cc`,
  /// `mdoc_zk.cc`): versions 6 and 7; nil for earlier ones.
  private static func prepare(_ circuit: LongfellowCircuit, spec: ZkSystemSpec)
    throws(VerifierError) -> MdocZKPreparedCircuit?
  {
    guard let version = spec.version, let blockEncHash = spec.blockEncHash,
      let blockEncSig = spec.blockEncSig,
      let settings = MdocZKSettings.version(
        version, blockEncHash: blockEncHash, blockEncSig: blockEncSig)
    else { return nil }
    do {
      return try MdocZKPreparedCircuit(circuit, settings: settings)
    } catch {
      throw VerifierError(
        .invalidRequest, "\(spec.zkSystemId): \(error.reason)", underlying: error)
    }
  }

}

/// The Longfellow circuits Google publishes, with the parameters a `ZkSystemSpec` names them by:
/// facts from longfellow-zk `lib/circuits/mdoc/zk_spec.cc` (`kZkSpecs`, commit 8aeca544): circuit
/// id, number of attributes, version, `block_enc` of the hash and signature proofs.
package enum LongfellowCircuits {
  package static let published: [ZkSystemSpec] = [
    // Produced 2026-01-09 (version 7).
    ("8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121", 1, 7, 4151, 4096),
    ("6a5810683e62b6d7766ebd0d7ca72518a2b8325418142adcadb10d51dbbcd5ad", 2, 7, 4265, 4096),
    ("8ee4849ae1293ae6fe5f9082ce3e5e15c4f198f2998c682fa1b727237d6d252f", 3, 7, 4307, 4096),
    ("5aebdaaafe17296a3ef3ca6c80c6e7505e09291897c39700410a365fb278e460", 4, 7, 4415, 4096),
    // Produced 2025-10-10 (version 6).
    ("137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6", 1, 6, 4096, 2945),
    ("b4bb6f01b7043f4f51d8302a30b36e3d4d2d0efc3c24557ab9212ad524a9764e", 2, 6, 4025, 2945),
    ("b2211223b954b34a1081e3fbf71b8ea2de28efc888b4be510f532d6ba76c2010", 3, 6, 4121, 2945),
    ("c70b5f44a1365c53847eb8948ad5b4fdc224251a2bc02d958c84c862823c49d6", 4, 6, 4283, 2945),
    // Produced 2025-08-21 (version 5).
    ("f88a39e561ec0be02bb3dfe38fb609ad154e98decbbe632887d850fc612fea6f", 1, 5, 4096, 2945),
    ("f51b7248b364462854d306326abded169854697d752d3bb6d9a9446ff7605ddb", 2, 5, 4025, 2945),
    ("c27195e03e22c9ab4efe9e1dabd2c33aa8b2429cc4e86410c6f12542d3c5e0a1", 3, 5, 4121, 2945),
    ("fa5fadfb2a916d3b71144e9b412eff78f71fd6a6d4607eac10de66b195868b7a", 4, 5, 4283, 2945),
  ].map {
    ZkSystemSpec(
      longfellowCircuitHash: $0.0, numAttributes: $0.1, version: $0.2, blockEncHash: $0.3,
      blockEncSig: $0.4)
  }
}
