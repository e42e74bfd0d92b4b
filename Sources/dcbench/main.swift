// dcbench: the performance figures reported in issue notes, as ratios to baselines measured in
// the same run. Build and run in release mode: `swift run -c release dcbench [filter]`.
import Foundation

func runBenchmarks() async throws {
  let filter = CommandLine.arguments.dropFirst().first
  var harness = Harness()
  print(
    "dcbench (\(ProcessInfo.processInfo.activeProcessorCount) cores"
      + (Harness.usesCPUTime ? ", CPU time)" : ")"))
  for benchmark in allBenchmarks where filter == nil || benchmark.name.contains(filter ?? "") {
    print("\n== \(benchmark.name)")
    try await benchmark.run(&harness)
  }
}

try await runBenchmarks()
