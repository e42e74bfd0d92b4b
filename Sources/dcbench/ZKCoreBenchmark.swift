import DCZK
import Foundation

/// The Longfellow proof system's parts on the 1-attribute mdoc circuit and proof (issue 33):
/// reading the circuit, its ids, and each verifier stage of the hash (GF(2^128)) and signature
/// (P-256) proofs. The circuit and proof come from `DCBENCH_ZK_VECTORS` (default: the test
/// vectors, Tests/DCZKTests/Vectors/longfellow); without them the benchmark is skipped.
func zkCoreBenchmark(_ h: inout Harness) throws {
  let directory =
    ProcessInfo.processInfo.environment["DCBENCH_ZK_VECTORS"]
    ?? "Tests/DCZKTests/Vectors/longfellow"
  guard let compressed = FileManager.default.contents(atPath: directory + "/circuit-1attr-v7.zst"),
    let proof = FileManager.default.contents(atPath: directory + "/proof-valid.bin")
  else {
    print("  (no vectors in \(directory): skipped)")
    return
  }
  var x = FieldP256(3)
  let y = FieldP256(5).inverse
  h.measure("P-256 base field: 1,000 dependent multiplications", iterations: 1000) {
    for _ in 0..<1000 { x = x * y }
  }
  blackHole(x)
  var u = GF2128(lo: 3, hi: 7)
  let v = GF2128(lo: 0x1234, hi: 0x5678).inverse
  h.measure("GF(2^128): 1,000 dependent multiplications", iterations: 1000) {
    for _ in 0..<1000 { u = u * v }
  }
  blackHole(u)
  let circuitBytes = Array(compressed)
  var circuit: LongfellowCircuit?
  try h.measure("read circuit (zstd, LFC1), ids not checked", iterations: 1, batches: 3) {
    circuit = try LongfellowCircuit(compressed: circuitBytes, checkingIDs: false)
  }
  guard let circuit else { return }
  h.measure("recompute both circuit ids", iterations: 1, batches: 3) {
    blackHole(circuit.signature.computedID() + circuit.hash.computedID())
  }
  let hash = try ZKVerifier(
    circuit: circuit.hash, settings: LigeroSettings(rateInverse: 7, nreq: 132, blockEnc: 4151))
  let sig = try ZKVerifier(
    circuit: circuit.signature,
    settings: LigeroSettings(rateInverse: 7, nreq: 132, blockEnc: 4096))
  let bytes = Array(proof)
  var offset = 96
  let hashProof = try hash.readProof(bytes, offset: &offset)
  let sigProof = try sig.readProof(bytes, offset: &offset)
  print("  proof: \(bytes.count) bytes, \(bytes.count - offset) left over")
  try stages(&h, "hash", hash, hashProof)
  try stages(&h, "signature", sig, sigProof)
}

/// The stages of one circuit's verification, with public inputs of the right count (their
/// values do not change the work done).
private func stages<F: ZKField>(
  _ h: inout Harness, _ name: String, _ verifier: ZKVerifier<F>, _ proof: ZKProof<F>
) throws {
  let inputs = [F](repeating: .one, count: verifier.circuit.npubIn)
  var constraints: DeferredConstraints<F>?
  h.measure("\(name): sumcheck constraints", iterations: 1, batches: 3) {
    var transcript = ZKTranscript(sessionID: [1, 2, 3])
    constraints = SumcheckVerifier<F>.constraints(
      circuit: verifier.circuit, publicInputs: inputs, proof: proof.sumcheck,
      transcript: &transcript)
  }
  guard let constraints else { return }
  h.measure("\(name): Ligero checks (all run)", iterations: 1, batches: 3) {
    blackHole(
      LigeroVerifier<F>.timedChecks(
        verifier.parameters, weights: verifier.weights, proof: proof.ligero, constraints))
  }
}
