import DCCrypto
import DCZK
import Foundation

/// Longfellow mdoc proving (issue 33, the holder) on the committed 1-attribute statement, with
/// the witness upstream's fill_witness made for fixed MAC keys (the uncompressed dump of
/// Tests/DCZKTests/Vectors/longfellow/witness-fixed-keys.wit.zst in `DCBENCH_ZK_WITNESS`; format
/// in that directory's PROVENANCE.md). The floor is Google's C++ prover (`lfzk prove`, which
/// also reads the circuit and fills the witness) on the same input, measured by
/// scripts/zk-prove-bench.sh and passed in `DCBENCH_ZK_PROVE_CPP_SECONDS`.
func zkProveBenchmark(_ h: inout Harness) throws {
  struct Missing: Error {}
  let environment = ProcessInfo.processInfo.environment
  let directory = environment["DCBENCH_ZK_DIR"] ?? "Tests/DCZKTests/Vectors/longfellow"
  func file(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }
  guard let witnessPath = environment["DCBENCH_ZK_WITNESS"] else {
    print("  no DCBENCH_ZK_WITNESS (scripts/zk-prove-bench.sh sets it): skipped")
    return
  }
  let compressed = try file(directory + "/circuit-1attr-v7.zst")
  let statement = try zkStatement(try file(directory + "/vectors.json"))
  let circuit = try LongfellowCircuit(compressed: compressed, checkingIDs: false)
  let input = try proverInput(
    try file(witnessPath), hashPublic: circuit.hash.npubIn,
    signaturePublic: circuit.signature.npubIn)
  var last: [UInt8] = []
  let prove = try h.measure(
    "mdoc prove, 1 attribute (circuit already read)", iterations: 1, batches: 3
  ) {
    var random = ZKRandom(SecureRandom())
    let proof = try MdocZKProver.prove(
      circuit: circuit, statement: statement, input: input, random: &random)
    last = proof
  }
  // The proof must be one: the Swift verifier checks the last one made.
  try MdocZKVerifier.verify(proof: last, circuit: circuit, statement: statement)
  print("  Swift proof size: \(last.count) bytes (accepted by MdocZKVerifier)")
  if let text = environment["DCBENCH_ZK_PROVE_CPP_SECONDS"], let seconds = Double(text) {
    print(
      "  "
        + "C++ lfzk prove (reads the circuit, fills the witness)".padding(
          toLength: 58, withPad: " ", startingAt: 0) + String(format: "%12.1f ms", seconds * 1e3))
    Harness.ratio("Swift prove / C++ lfzk prove", prove, over: seconds * 1e9)
  }
}

/// The prover input from the witness dump (magic LFZW 01 00 00 00; hash/sig ninputs and npub_in
/// as u32; six MACs; the hash inputs (16 B each); the signature inputs (32 B each)), with the
/// fixed MAC keys ap byte i = 37 i + 11 and av byte i = 53 i + 7 (mod 256) it was made with.
/// The MACed values (e, device key x, y) come back from the MACs: m = mac / (av + ap).
private func proverInput(_ bytes: [UInt8], hashPublic: Int, signaturePublic: Int) throws
  -> MdocZKProverInput
{
  struct Unreadable: Error {}
  guard bytes.count > 120, Array(bytes[0..<4]) == Array("LFZW".utf8) else { throw Unreadable() }
  func u32(_ o: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[o + $1]) << (8 * $1) } }
  let (nh, ns) = (u32(8), u32(16))
  guard bytes.count == 120 + 16 * nh + 32 * ns else { throw Unreadable() }
  let ap = (0..<96).map { UInt8((37 * $0 + 11) % 256) }
  let av = (0..<16).map { UInt8((53 * $0 + 7) % 256) }
  let keys = (0..<6).map { GF2128.read(ap, at: 16 * $0)! }
  let a = GF2128.read(av, at: 0)!
  let values = (0..<3).map { i in
    Array(
      (0..<2).flatMap { j -> [UInt8] in
        let mac = GF2128.read(bytes, at: 24 + 16 * (2 * i + j))!
        var out: [UInt8] = []
        (mac * (a + keys[2 * i + j]).inverse).write(to: &out)
        return out
      }.reversed())
  }
  let hash = (hashPublic..<nh).map { GF2128.read(bytes, at: 120 + 16 * $0)! }
  let base = 120 + 16 * nh
  var signature: [FieldP256] = []
  for i in signaturePublic..<ns {
    guard let e = FieldP256.read(bytes, at: base + 32 * i) else { throw Unreadable() }
    signature.append(e)
  }
  return MdocZKProverInput(
    hashPrivateInputs: hash, signaturePrivateInputs: signature, macKeys: keys,
    messageDigest: values[0], deviceKeyX: values[1], deviceKeyY: values[2])
}
