package import DCWalletStore
import Dispatch
package import Foundation

/// A credential with recognizable contents.
package func sampleCredential(
  id: String, format: CredentialFormat = .msoMdoc, createdAt: Date = Date(),
  deviceKeyID: String? = nil
) -> StoredCredential {
  StoredCredential(
    id: id, format: format,
    type: format == .msoMdoc ? "org.iso.18013.5.1.mDL" : "urn:eudi:pid:1",
    issued: Array("issued \(id)".utf8),
    display: CredentialDisplay(
      title: "Credential \(id)", subtitle: "Erika Mustermann", issuerName: "Test Issuer",
      claimNames: ["org.iso.18013.5.1/family_name": "Family name"]),
    validFrom: Date(timeIntervalSince1970: 1_780_000_000.123),
    validUntil: Date(timeIntervalSince1970: 1_811_536_000),
    deviceKeyID: deviceKeyID, issuerAuthorityKeyIdentifiers: [[0x01, 0x02, 0xAB], [0xFF]],
    createdAt: createdAt)
}

/// Runs the `dcstore-probe` executable that SwiftPM builds next to the test bundle.
package enum StoreProbe {
  package struct NotFound: Error, CustomStringConvertible {
    package let searched: [String]
    package var description: String { "dcstore-probe not found; searched \(searched)" }
  }

  /// The probe binary: `$STORE_PROBE`, else the build directory of this test bundle.
  package static func executable() throws -> URL {
    if let explicit = ProcessInfo.processInfo.environment["STORE_PROBE"] {
      return URL(fileURLWithPath: explicit)
    }
    // The test bundle this code is linked into (on Linux, the main bundle).
    var starts = [Bundle(for: BundleMarker.self).bundleURL, Bundle.main.bundleURL]
    if let executable = Bundle.main.executableURL { starts.append(executable) }
    if let first = CommandLine.arguments.first { starts.append(URL(fileURLWithPath: first)) }
    var searched = [String]()
    for start in starts {
      // .build/debug/X.resources, .build/debug/X.xctest, or X.xctest/Contents/MacOS/X on macOS.
      var directory = start.deletingLastPathComponent()
      for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("dcstore-probe")
        searched.append(candidate.path)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
      }
    }
    throw NotFound(searched: searched)
  }

  /// Starts a probe; its standard output is readable from the returned pipe.
  package static func start(_ arguments: [String]) throws -> (Process, Pipe) {
    let process = Process()
    process.executableURL = try executable()
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    return (process, output)
  }

  /// The probe's next chunk of output (a line it printed), read off the cooperative pool.
  package static func output(_ pipe: Pipe) async -> String {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        let data = pipe.fileHandleForReading.availableData
        continuation.resume(returning: String(decoding: data, as: UTF8.self))
      }
    }
  }

  /// Waits for a probe to exit without blocking the cooperative pool's threads.
  package static func wait(_ process: Process) async -> Int32 {
    while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
    return process.terminationStatus
  }
}

/// A class of this module, whose bundle is the test bundle it is linked into.
private final class BundleMarker {}
