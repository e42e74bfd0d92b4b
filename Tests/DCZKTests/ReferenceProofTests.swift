import DCTestSupport
import Foundation
import Testing

@testable import DCZK

/// The Rust reference verifier's circuits and proofs (Vectors/rust-reference/PROVENANCE.md):
/// DCZK accepts them and refuses every alteration with a typed error.
@Suite struct ReferenceProofTests {
  struct Case<F: ZKField> {
    let circuit: ZKCircuit<F>
    let verifier: ZKVerifier<F>
    let proof: [UInt8]
    let label: [UInt8]

    init(_ name: String, settings: LigeroSettings, label: String) throws {
      let lfc2 = try VectorFile.bytes("rust-reference/\(name)_circuit", ext: "lfc2", in: .module)
      circuit = try #require(ZKCircuit<F>(lfc2: lfc2))
      verifier = try ZKVerifier(circuit: circuit, settings: settings)
      proof = try VectorFile.bytes("rust-reference/\(name)_proof", ext: "bin", in: .module)
      self.label = Array(label.utf8)
    }

    func verify(_ bytes: [UInt8], publicInputs: [F] = []) throws(ZKError) {
      var transcript = ZKTranscript(sessionID: label)
      try verifier.verify(proof: bytes, publicInputs: publicInputs, transcript: &transcript)
    }
  }

  static func sha256() throws -> Case<GF2128> {
    try Case(
      "sha256", settings: LigeroSettings(rateInverse: 3, nreq: 16, blockEnc: 256),
      label: "sha256_spec_test")
  }

  static func ecdsa() throws -> Case<FieldP256> {
    try Case(
      "ecdsa2", settings: LigeroSettings(rateInverse: 4, nreq: 16, blockEnc: 256),
      label: "ecdsa2_spec_test")
  }

  @Test func circuitIDsAreRecomputed() throws {
    let sha = try Self.sha256()
    #expect(sha.circuit.computedID() == sha.circuit.id)
    let ecdsa = try Self.ecdsa()
    #expect(ecdsa.circuit.computedID() == ecdsa.circuit.id)
  }

  @Test func acceptsTheReferenceProofs() throws {
    let sha = try Self.sha256()
    try sha.verify(sha.proof)
    let ecdsa = try Self.ecdsa()
    try ecdsa.verify(ecdsa.proof)
  }

  @Test func refusesAnotherSessionOrInputs() throws {
    let sha = try Self.sha256()
    var other = ZKTranscript(sessionID: Array("another session".utf8))
    #expect(throws: ZKError(.merkleMismatch, "")) {
      try sha.verifier.verify(proof: sha.proof, publicInputs: [], transcript: &other)
    }
    #expect(throws: ZKError(.publicInputsInvalid, "")) {
      try sha.verify(sha.proof, publicInputs: [.one])
    }
  }

  @Test func refusesTruncatedAndExtendedProofs() throws {
    let sha = try Self.sha256()
    for cut in [0, 31, 32, 100, sha.proof.count / 2, sha.proof.count - 1] {
      #expect(throws: ZKError.self) { try sha.verify(Array(sha.proof[0..<cut])) }
    }
    #expect(throws: ZKError(.proofTruncated, "")) { try sha.verify(Array(sha.proof.dropLast())) }
    #expect(throws: ZKError(.proofTrailingBytes, "")) { try sha.verify(sha.proof + [0]) }
  }

  /// Flips one bit at offsets spread over the whole proof (root, sumcheck, Ligero rows, runs,
  /// nonces, Merkle path): every alteration is refused with a typed error, never accepted.
  @Test func refusesEveryAlteredByte() throws {
    let sha = try Self.sha256()
    let ecdsa = try Self.ecdsa()
    for offset in stride(from: 0, to: sha.proof.count, by: 4999) {
      var altered = sha.proof
      altered[offset] ^= 0x01
      #expect(throws: ZKError.self) { try sha.verify(altered) }
    }
    for offset in stride(from: 5, to: ecdsa.proof.count, by: 5501) {
      var altered = ecdsa.proof
      altered[offset] ^= 0x80
      #expect(throws: ZKError.self) { try ecdsa.verify(altered) }
    }
  }

  @Test func typedErrorsForEachCheck() throws {
    let sha = try Self.sha256()
    // The root: the Merkle check fails first.
    var altered = sha.proof
    altered[0] ^= 1
    #expect(throws: ZKError(.merkleMismatch, "")) { try sha.verify(altered) }
    // A sumcheck evaluation (just after the root): the constraints change, so Ligero's
    // challenges and checks do.
    altered = sha.proof
    altered[40] ^= 1
    #expect(throws: ZKError.self) { try sha.verify(altered) }
  }
}
