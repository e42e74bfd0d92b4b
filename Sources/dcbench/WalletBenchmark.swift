import DCAPI
import DCCBOR
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCWallet
import DCX509
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A wallet holding 1,000 credentials (one mDL among 999 others) and an Annex C request.
struct WalletFixture {
  let home: WalletHome
  let annexC: AnnexCFixture
  let envelope: RequestEnvelope

  init() async throws {
    annexC = try AnnexCFixture()
    home = WalletHome(
      directory: FileManager.default.temporaryDirectory.appendingPathComponent(
        "dcbench-\(UUID().uuidString)"
      ).path)
    let wallet = try Wallet(home: home)
    _ = try await wallet.addTrustAnchor(annexC.iaca, role: .issuer)
    _ = try await wallet.addTrustAnchor(annexC.readerRoot, role: .reader)
    _ = try await wallet.importMdoc(
      annexC.credentials[0].issuerSigned.bytes, deviceKey: annexC.deviceKey, id: "mdl")
    // 999 other credentials: PIDs (another docType) bound to their own keys.
    let issuerKey = try ECPrivateKey(curve: .p256)
    let iaca = try CertificateBuilder.iaca(
      commonName: "Other IACA", country: "UT", publicKey: issuerKey.publicKey,
      notBefore: annexC.now.addingTimeInterval(-86_400),
      notAfter: annexC.now.addingTimeInterval(86_400 * 365)
    ).selfSigned(signer: issuerKey)
    _ = try await wallet.addTrustAnchor(iaca, role: .issuer)
    let dsKey = try ECPrivateKey(curve: .p256)
    let ds = try CertificateBuilder.documentSigner(
      commonName: "Other DS", country: "UT", publicKey: dsKey.publicKey,
      notBefore: annexC.now.addingTimeInterval(-86_400),
      notAfter: annexC.now.addingTimeInterval(86_400 * 365)
    ).issued(by: iaca, signer: issuerKey)
    let issuer = MdocIssuer(signer: dsKey, certificateChain: [ds])
    for i in 1..<1000 {
      let key = try ECPrivateKey(curve: .p256)
      let pid = try issuer.issue(
        docType: "eu.europa.ec.eudi.pid.1",
        nameSpaces: [
          (
            "eu.europa.ec.eudi.pid.1",
            [("family_name", .textString("Person \(i)")), ("age_over_18", true)]
          )
        ],
        deviceKey: key.publicKey,
        validity: ValidityInfo(
          signed: annexC.now, validFrom: annexC.now.addingTimeInterval(-60),
          validUntil: annexC.now.addingTimeInterval(86_400)))
      _ = try await wallet.importMdoc(pid.bytes, deviceKey: key, id: "pid-\(i)")
    }
    envelope = RequestEnvelope(requests: [
      ProtocolRequest(protocolIdentifier: "org-iso-mdoc", data: annexC.requestData)
    ])
  }
}

/// Issue 5: a wallet with 1,000 stored credentials.
func walletBenchmark(_ h: inout Harness) async throws {
  let fixture = try await WalletFixture()
  defer { try? FileManager.default.removeItem(atPath: fixture.home.directory) }
  let origin = fixture.annexC.origin.serialized
  let listed = try await Wallet(home: fixture.home).credentials().count
  print("  wallet holds \(listed) credentials")
  try await h.measureAsync("open store + list 1,000 credentials", iterations: 20) {
    blackHole(try await Wallet(home: fixture.home).credentials())
  }
  let wallet = try Wallet(home: fixture.home)
  try await h.measureAsync("match one Annex C request (resolve)", iterations: 200) {
    blackHole(try await wallet.resolve(fixture.envelope, origin: origin))
  }
  let answer = try await h.measureAsync(
    "answer it end to end (resolve, consent, sign, seal, log)", iterations: 200
  ) {
    let request = try await wallet.resolve(fixture.envelope, origin: origin)
    blackHole(try await wallet.respond(to: request, consent: try request.proposedConsent()))
  }
  print(
    String(
      format: "  end-to-end answer with 1,000 stored credentials: %.2f ms (aim < 5 ms: %@)",
      answer / 1e6, answer < 5e6 ? "met" : "NOT met"))
  try peakMemory(fixture: fixture)
}

/// Peak RSS of `dcwallet respond` against a Foundation-only program, both as child processes.
func peakMemory(fixture: WalletFixture) throws {
  let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  let dcwallet = directory.appendingPathComponent("dcwallet").path
  let baseline = directory.appendingPathComponent("dcbench-baseline").path
  guard FileManager.default.isExecutableFile(atPath: dcwallet),
    FileManager.default.isExecutableFile(atPath: baseline),
    FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
  else {
    print(
      "  peak RSS: skipped (needs dcwallet and dcbench-baseline built alike, and GNU time: apt-get install time)"
    )
    return
  }
  let requestFile = fixture.home.directory + "/request.json"
  let request = JSONValue.object([
    ("protocol", .string("org-iso-mdoc")), ("data", fixture.annexC.requestData),
  ])
  try Data(request.serialized().utf8).write(to: URL(fileURLWithPath: requestFile))
  let respond = try maxRSS(
    dcwallet,
    [
      "--home", fixture.home.directory, "respond", "--origin", fixture.annexC.origin.serialized,
      "--request", requestFile,
    ])
  let foundation = try maxRSS(baseline, [])
  print(
    String(
      format: "  peak RSS: dcwallet respond %.1f MB, Foundation-only program %.1f MB",
      respond / 1024, foundation / 1024))
  Harness.ratio("dcwallet respond peak RSS / Foundation-only", respond, over: foundation, aim: 1.5)
}

/// Runs a program five times under GNU time and returns the median peak resident set size, KB.
///
/// The measuring parent must be small: on Linux a child's peak RSS counts the memory of the
/// process that forked it, so measuring from this benchmark (tens of MB) would report this
/// process's size for both programs. GNU time (Debian package `time`) is that small parent.
func maxRSS(_ path: String, _ arguments: [String]) throws -> Double {
  var samples: [Double] = []
  for _ in 0..<5 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    process.arguments = ["-f", "%M", path] + arguments
    let stderr = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = stderr
    try process.run()
    let output = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0, let last = output.split(separator: "\n").last,
      let kb = Double(last)
    else {
      throw CocoaError(.executableLoad)
    }
    samples.append(kb)
  }
  samples.sort()
  return samples[samples.count / 2]
}
