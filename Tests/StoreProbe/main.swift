import DCAPI
import DCCrypto
import DCMdoc
import DCOrgIsoMdoc
// A second (and third) process for the store's multi-process tests.
//
//   dcstore-probe write <db> <prefix> <count> [<go>]
//       opens the store, prints "ready", waits until the file <go> exists (if given), then
//       inserts <count> credentials `<prefix>-<i>`, each with an activity entry, one
//       transaction each
//   dcstore-probe hang <db> <prefix> <count>    commits <count> credentials, then opens a
//                                             transaction, writes more, prints "hanging" and
//                                             sleeps until killed
//   dcstore-probe churn <home> <tag>            opens a wallet in <home> (SoftwareKeyStore), prints
//                                             "ready", then loops until killed: imports an mDL
//                                             `<tag>-<i>` with a fresh device key, answers an
//                                             Annex C request with it, and removes the oldest
//                                             credential while more than three are stored. Each
//                                             step prints a line before it starts ("importing
//                                             <id>", "responding", "removing <id>") and one once
//                                             it has committed ("imported <id>", "responded",
//                                             "removed <id>"), for the crash-consistency test
//   dcstore-probe locks <db>                    prints "free" when it can take a write lock on
//                                             the whole of <db> and <db>-shm (POSIX fcntl locks,
//                                             as SQLite's unix VFS takes them), else "held <file>"
import DCWallet
import DCWalletTestSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ line: String) -> Never {
  FileHandle.standardError.write(Data(("dcstore-probe: " + line + "\n").utf8))
  exit(1)
}

func credential(_ id: String) -> StoredCredential {
  StoredCredential(
    id: id, format: .msoMdoc, type: "org.iso.18013.5.1.mDL", issued: Array(id.utf8),
    display: CredentialDisplay(title: id))
}

/// Whether another process holds any fcntl lock on part of the file (a missing file has none).
func lockHeld(_ path: String) -> Bool {
  let fd = open(path, O_RDWR)
  guard fd >= 0 else { return false }
  defer { close(fd) }
  var lock = flock()
  lock.l_type = Int16(F_WRLCK)
  lock.l_whence = Int16(SEEK_SET)
  lock.l_start = 0
  lock.l_len = 0  // the whole file, including SQLite's lock bytes past its end
  return fcntl(fd, F_SETLK, &lock) != 0
}

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "locks" {
  let held = [arguments[2], arguments[2] + "-shm", arguments[2] + "-wal"].filter(lockHeld)
  say(held.isEmpty ? "free" : "held " + held.joined(separator: " "))
  exit(0)
}
if arguments.count == 4, arguments[1] == "churn" {
  do {
    try await churn(home: arguments[2], tag: arguments[3])
  } catch {
    fail("\(error)")
  }
}
guard (5...6).contains(arguments.count), let count = Int(arguments[4]), count >= 0 else {
  fail("usage: dcstore-probe write|hang <db> <prefix> <count> [<go>]")
}
let (command, path, prefix) = (arguments[1], arguments[2], arguments[3])

do {
  let store = try WalletStore(path: path, busyTimeout: .seconds(30))
  switch command {
  case "write":
    say("ready")
    if arguments.count == 6 {
      // A start line for all writers, so that they really write at the same time.
      // Bounded, but generous: on two cores the test process's cooperative threads can be busy
      // with CPU-heavy suites (Longfellow verification) for minutes before it writes the file.
      let deadline = Date().addingTimeInterval(600)
      while !FileManager.default.fileExists(atPath: arguments[5]) {
        guard Date() < deadline else { fail("no go file") }
        try await Task.sleep(for: .milliseconds(1))
      }
    }
    for i in 0..<count {
      let id = "\(prefix)-\(i)"
      try await store.transaction { tx in
        try tx.insert(credential(id))
        try tx.append(NewActivity(protocolIdentifier: "probe", outcome: .shared, detail: id))
      }
    }
    say("ok \(count)")
  case "hang":
    for i in 0..<count { try await store.insert(credential("\(prefix)-\(i)")) }
    try await store.transaction { tx in
      for i in 0..<10 { try tx.insert(credential("\(prefix)-uncommitted-\(i)")) }
      try tx.append(
        NewActivity(protocolIdentifier: "probe", outcome: .failed, detail: "uncommitted"))
      say("hanging")
      Thread.sleep(forTimeInterval: 600)
    }
    fail("was not killed")
  default:
    fail("unknown command \(command)")
  }
} catch {
  fail("\(error)")
}

/// Imports, answers and removes until killed (see the usage at the top).
func churn(home: String, tag: String) async throws -> Never {
  let pki = try TestPKI(now: Date())
  let wallet = try Wallet(
    home: WalletHome(directory: home), policy: WalletPolicy(acceptsUnverifiedIssuers: true))
  let items = ItemsRequest(
    docType: "org.iso.18013.5.1.mDL",
    nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])])
  let request = AnnexCRequest(
    deviceRequest: DeviceRequest(docRequests: [DocRequest(itemsRequest: items)]),
    encryptionInfo: EncryptionInfo(
      nonce: [UInt8](repeating: 1, count: 16),
      recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey))
  let envelope = RequestEnvelope(requests: [
    ProtocolRequest(protocolIdentifier: "org-iso-mdoc", data: request.data)
  ])
  say("ready")
  var i = 0
  while true {
    let id = "\(tag)-\(i)"
    i += 1
    let device = try ECPrivateKey(curve: .p256)
    let issued = try pki.issue(deviceKey: device.publicKey)
    say("importing \(id)")
    _ = try await wallet.importMdoc(issued.bytes, deviceKey: device, id: id)
    say("imported \(id)")
    let presentation = try await wallet.resolve(envelope, origin: "https://shop.example")
    let consent = try presentation.proposedConsent()
    say("responding")
    _ = try await wallet.respond(to: presentation, consent: consent)
    say("responded")
    let stored = try await wallet.credentials()
    if stored.count > 3, let oldest = stored.first {
      say("removing \(oldest.id)")
      try await wallet.removeCredential(id: oldest.id)
      say("removed \(oldest.id)")
    }
  }
}
