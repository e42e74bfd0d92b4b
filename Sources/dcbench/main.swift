// dcbench: the performance figures reported in issue notes, as ratios to baselines measured in
// the same run. Build and run in release mode: `swift run -c release dcbench [filter]`.
import Foundation

func runBenchmarks() async throws {
  let filter = CommandLine.arguments.dropFirst().first
  var harness = Harness()
  print(
    "dcbench (\(ProcessInfo.processInfo.activeProcessorCount) cores"
      + (Harness.usesCPUTime ? ", CPU time)" : ")"))
  // A filter naming one benchmark exactly runs that one alone (`zk`, not also `zk-core`: its
  // peak memory is then its own); otherwise every benchmark whose name contains it.
  let exact = allBenchmarks.contains { $0.name == filter }
  for benchmark in allBenchmarks
  where filter == nil || (exact ? benchmark.name == filter : benchmark.name.contains(filter ?? ""))
  {
    print("\n== \(benchmark.name)")
    try await benchmark.run(&harness)
  }
}

try await runBenchmarks()
