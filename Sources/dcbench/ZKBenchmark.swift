import DCEncoding
import DCZK
import Foundation

/// Longfellow mdoc verification (issue 33) on the committed 1-attribute proof
/// (Tests/DCZKTests/Vectors/longfellow, or `DCBENCH_ZK_DIR`). The floor is Google's C++ verifier
/// on the same proof and machine, measured by scripts/zk-bench.sh just before and passed in
/// `DCBENCH_ZK_CPP_SECONDS` (its `run_mdoc_verifier` also reads the circuit each time and does
/// not check the circuits' ids); without it only the Swift times are printed.
func zkBenchmark(_ h: inout Harness) throws {
  let environment = ProcessInfo.processInfo.environment
  let directory = environment["DCBENCH_ZK_DIR"] ?? "Tests/DCZKTests/Vectors/longfellow"
  func file(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(name)))
  }
  let compressed = try file("circuit-1attr-v7.zst")
  let proof = try file("proof-valid.bin")
  let statement = try zkStatement(try file("vectors.json"))
  let read = try h.measure("circuit read (zstd, LFC1), ids not checked", iterations: 1, batches: 3)
  {
    blackHole(try LongfellowCircuit(compressed: compressed, checkingIDs: false))
  }
  let circuit = try LongfellowCircuit(compressed: compressed, checkingIDs: false)
  peakMemory("after reading the circuit")
  let prepare = try h.measure(
    "prepare both verifiers (Ligero layout, Reed–Solomon weights)", iterations: 1, batches: 3
  ) {
    blackHole(try MdocZKPreparedCircuit(circuit))
  }
  let prepared = try MdocZKPreparedCircuit(circuit)
  let verify = try h.measure(
    "mdoc proof verify, 1 attribute (circuit read and prepared)", iterations: 1, batches: 5
  ) {
    try MdocZKVerifier.verify(proof: proof, prepared: prepared, statement: statement)
  }
  peakMemory("after verifying")
  // Harness times are nanoseconds; the C++ figure comes in seconds.
  func line(_ label: String, _ nanoseconds: Double) {
    print(
      "  " + label.padding(toLength: 58, withPad: " ", startingAt: 0)
        + String(format: "%12.1f ms", nanoseconds / 1e6))
  }
  let whole = read + prepare + verify
  line("Swift: read + prepare + verify (what C++ does per run)", whole)
  if let text = environment["DCBENCH_ZK_CPP_SECONDS"], let seconds = Double(text) {
    let cpp = seconds * 1e9
    line("C++ run_mdoc_verifier (reads the circuit)", cpp)
    Harness.ratio(
      "Swift (read + prepare + verify) / C++ run_mdoc_verifier", whole, over: cpp, aim: 2)
    Harness.ratio(
      "Swift verify alone (prepared circuit) / C++ run_mdoc_verifier", verify, over: cpp)
  }
}

/// The statement in the vectors' `vectors.json`.
func zkStatement(_ json: [UInt8]) throws -> MdocZKStatement {
  struct Unreadable: Error {}
  guard let object = try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
    let fields = object["statement"] as? [String: Any],
    let x = fields["issuerX"] as? String, let y = fields["issuerY"] as? String,
    let docType = fields["docType"] as? String,
    let transcript = fields["sessionTranscript"] as? String,
    let now = fields["now"] as? String, let attributes = fields["attributes"] as? [[String: String]]
  else { throw Unreadable() }
  return try MdocZKStatement(
    issuerKeyX: try Hex.decode(x), issuerKeyY: try Hex.decode(y), docType: docType,
    attributes: try attributes.map {
      MdocZKAttribute(
        identifier: $0["identifier"] ?? "", cborValue: try Hex.decode($0["cborValue"] ?? ""))
    },
    sessionTranscript: try Hex.decode(transcript), now: now)
}

/// Prints the process's peak resident memory so far (Linux: VmHWM in /proc/self/status).
private func peakMemory(_ label: String) {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
  else { return }
  let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
  print("  peak resident memory \(label): \(kilobytes / 1024) MB")
}
