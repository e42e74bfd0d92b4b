import DCMdoc

/// The one call into the Longfellow proof verifier (DCZK's `MdocZKVerifier`), with a statement
/// every check outside the proof has already passed.
enum ZeroKnowledgeProofCheck {
  /// Verifies `prepared.proof` under its circuit and statement.
  ///
  /// - Throws: `proofSystemUnavailable` until DCZK's verifier is in this build: the proof is
  ///   never taken as verified without it.
  static func verify(_ prepared: PreparedProof) throws(VerifierError) {
    throw VerifierError(
      .proofSystemUnavailable,
      "\(prepared.statement.docType): every check outside the proof passed, but this build has "
        + "no Longfellow verifier for \(prepared.circuit.spec.zkSystemId): the proof is not verified"
    )
  }
}
