import DCMdoc
import DCZK

/// The one call into the Longfellow proof verifier (DCZK's `MdocZKVerifier`), with a statement
/// every check outside the proof has already passed.
enum ZeroKnowledgeProofCheck {
  /// Verifies `prepared.proof` under its circuit and statement.
  ///
  /// - Throws: `verificationFailed` when the proof does not prove the statement (the `ZKError`
  ///   underneath says which check failed); `proofSystemUnavailable` for a circuit version whose
  ///   proof settings DCZK does not have (`zk_spec.cc`): the proof is never taken as verified
  ///   without a check.
  static func verify(_ prepared: PreparedProof) throws(VerifierError) {
    let statement = prepared.statement
    guard let circuit = prepared.circuit.prepared else {
      let spec = prepared.circuit.spec
      throw VerifierError(
        .proofSystemUnavailable,
        "\(statement.docType): every check outside the proof passed, but the proof "
          + "settings of circuit version \(spec.version ?? 0) (\(spec.zkSystemId)) are not in this "
          + "build: the proof is not verified")
    }
    do {
      try MdocZKVerifier.verify(proof: prepared.proof, prepared: circuit, statement: statement)
    } catch {
      throw VerifierError(
        .verificationFailed,
        "\(statement.docType): the zero-knowledge proof does not verify: \(error.reason)",
        underlying: error)
    }
  }
}
