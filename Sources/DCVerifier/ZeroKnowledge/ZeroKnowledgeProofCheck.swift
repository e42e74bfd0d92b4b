import DCMdoc
import DCZK

/// The one call into the Longfellow proof verifier (DCZK's `MdocZKVerifier`), with a statement
/// every check outside the proof has already passed.
enum ZeroKnowledgeProofCheck {
  /// Verifies `prepared.proof` under its circuit and statement.
  ///
  /// - Throws: `verificationFailed` when the proof does not prove the statement (the `ZKError`
  ///   underneath says which check failed); `proofSystemUnavailable` for a circuit version whose
  ///   proof settings DCZK does not have (it has version 7's, `zk_spec.cc`): the proof is never
  ///   taken as verified without a check.
  static func verify(_ prepared: PreparedProof) throws(VerifierError) {
    let spec = prepared.circuit.spec
    guard spec.version == 7 else {
      throw VerifierError(
        .proofSystemUnavailable,
        "\(prepared.statement.docType): every check outside the proof passed, but the proof "
          + "settings of circuit version \(spec.version ?? 0) (\(spec.zkSystemId)) are not in this "
          + "build: the proof is not verified")
    }
    let statement = prepared.statement
    let (x, y) = statement.issuerKeyCoordinates
    do {
      let zkStatement = try MdocZKStatement(
        issuerKeyX: x, issuerKeyY: y, docType: statement.docType,
        attributes: statement.attributes.map {
          MdocZKAttribute(identifier: $0.identifier, cborValue: $0.cborValue)
        },
        sessionTranscript: statement.sessionTranscript, now: statement.now)
      try MdocZKVerifier.verify(
        proof: prepared.proof, circuit: prepared.circuit.longfellow, statement: zkStatement)
    } catch {
      throw VerifierError(
        .verificationFailed,
        "\(statement.docType): the zero-knowledge proof does not verify: \(error.reason)",
        underlying: error)
    }
  }
}
