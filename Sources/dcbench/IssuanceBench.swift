import DCCBOR
import DCCOSE
import DCCrypto
import DCHTTP
import DCIssuer
import DCJOSE
import DCMdoc
import DCOpenID4VCI
import DCWallet
import DCX509
import Foundation

/// An `HTTPClient` that calls the issuer's handler in this process and adds up the time spent
/// inside it, so that the issuer's own work can be taken out of the wallet's figure.
final class TimedInProcessClient: HTTPClient, @unchecked Sendable {
  let handler: any HTTPHandler
  private let lock = NSLock()
  private var spent: UInt64 = 0

  init(handler: any HTTPHandler) { self.handler = handler }

  func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    let start = Harness.now()
    let response = await handler.handle(request)
    let elapsed = Harness.now() - start
    lock.withLock { spent += elapsed }
    return response
  }

  /// The handler time since the last call, in nanoseconds.
  func takeSpent() -> UInt64 {
    lock.withLock {
      defer { spent = 0 }
      return spent
    }
  }
}

/// An mDL issuer (OpenID4VCI 1.0, pre-authorized code with a transaction code, DPoP with nonces,
/// batch size 10) and a wallet that trusts its IACA.
struct IssuanceBenchFixture {
  static let issuerID = "http://127.0.0.1:8080"
  static let doctype = "org.iso.18013.5.1.mDL"
  let service: CredentialIssuerService
  let client: TimedInProcessClient
  let home: WalletHome
  let wallet: Wallet
  let iaca: Certificate
  let documentSigner: Certificate
  let dsKey: ECPrivateKey

  init() async throws {
    let now = Date()
    let from = now.addingTimeInterval(-86_400)
    let until = now.addingTimeInterval(86_400 * 365)
    let iacaKey = try ECPrivateKey(curve: .p256)
    iaca = try CertificateBuilder.iaca(
      commonName: "Bench IACA", country: "UT", publicKey: iacaKey.publicKey, notBefore: from,
      notAfter: until
    ).selfSigned(signer: iacaKey)
    dsKey = try ECPrivateKey(curve: .p256)
    documentSigner = try CertificateBuilder.documentSigner(
      commonName: "Bench DS", country: "UT", publicKey: dsKey.publicKey, notBefore: from,
      notAfter: until
    ).issued(by: iaca, signer: iacaKey)
    let configuration = IssuerConfiguration(
      credentialIssuer: try IssuerIdentifier(Self.issuerID, policy: .development),
      display: [IssuerDisplay(name: "Utopia DMV", locale: "en")],
      credentials: [
        IssuableCredential(
          id: "mDL",
          content: .mdoc(
            doctype: Self.doctype,
            nameSpaces: [
              (
                "org.iso.18013.5.1",
                [
                  ("family_name", "Mustermann"), ("given_name", "Erika"),
                  ("birth_date", "1971-09-01"), ("issuing_country", "UT"),
                  ("document_number", "123456789"), ("age_over_18", true),
                  ("age_over_21", true),
                ]
              )
            ]),
          display: [CredentialDisplay(name: "Mobile Driving Licence", locale: "en")])
      ],
      batchSize: 10, signer: dsKey, certificateChain: [documentSigner], iacas: [iaca],
      autoApprove: true)
    service = CredentialIssuerService(
      configuration: configuration, store: InMemoryIssuerStateStore())
    client = TimedInProcessClient(handler: IssuerHTTPHandler(service: service))
    home = WalletHome(
      directory: FileManager.default.temporaryDirectory.appendingPathComponent(
        "dcbench-issuance-\(UUID().uuidString)"
      ).path)
    wallet = try Wallet(home: home)
    _ = try await wallet.addTrustAnchor(iaca, role: .issuer)
  }

  var issuanceClient: IssuanceClient {
    IssuanceClient(
      http: client,
      configuration: IssuanceClient.Configuration(
        urlPolicy: .development, clientID: "bench-wallet",
        redirectURI: "https://wallet.example/cb"))
  }
}

/// The wallet-side stages of one batch, in nanoseconds of the chosen clock.
struct IssuanceBatchTiming {
  /// Offer to the issued (unverified) credentials: metadata, token, nonce, device keys, proofs,
  /// credential request and response parsing, with the issuer's handler time taken out.
  var protocolWallet: Double
  /// The issuer's handler time during that stage (excluded from the wallet's figure).
  var issuer: Double
  /// Decoding the N credentials, matching each to its device key, verification before
  /// storage, and storing the N device keys with the N credentials.
  var keysVerifyAndStore: Double
  var wallet: Double { protocolWallet + keysVerifyAndStore }
}

/// Runs one batch of `count` mDLs end to end and returns its stage times.
func issueBatch(_ fixture: IssuanceBenchFixture, count: Int) async throws -> IssuanceBatchTiming {
  let created = try fixture.service.createOffer(
    configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: true))
  let client = fixture.issuanceClient
  _ = fixture.client.takeSpent()
  let start = Harness.now()
  let result = try await client.issuePreAuthorized(
    offer: created.offer, txCode: created.transactionCode,
    options: IssuanceClient.Options(batchSize: count))
  let issued = Harness.now()
  let issuerTime = fixture.client.takeSpent()
  guard result.issued.count == count, result.failed.isEmpty else {
    throw BenchError("issuance gave \(result.issued.count) credentials, failures \(result.failed)")
  }
  // As `WalletIssuance` stores a credential response: the payloads, matched to the proof keys
  // they bind; keys and credentials written in one transaction.
  let keys = try result.issued.map { try $0.deviceKey.unwrapOr(BenchError("no device key")) }
  var payloads: [DCWallet.IssuedCredential.Payload] = []
  for outcome in result.issued {
    guard let text = outcome.credential.text else { throw BenchError("an outcome has no text") }
    payloads.append(
      try DCWallet.IssuedCredential(format: .msoMdoc, credential: text, deviceKeyID: "")
        .payload)
  }
  let stored = try await fixture.wallet.storeIssuedCredentials(
    payloads, deviceKeys: keys,
    expected: IssuanceExpectation(
      credentialIssuer: IssuanceBenchFixture.issuerID, configurationID: "mDL", format: .msoMdoc,
      type: IssuanceBenchFixture.doctype),
    notificationID: result.issued.first?.notification?.notificationID)
  let end = Harness.now()
  guard stored.stored.count == count else {
    throw BenchError("stored \(stored.stored.count) of \(count): \(stored.rejected)")
  }
  return IssuanceBatchTiming(
    protocolWallet: Double(issued - start) - Double(issuerTime), issuer: Double(issuerTime),
    keysVerifyAndStore: Double(end - issued))
}

struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Issue 13: the wallet's time per credential for a batch of 10 mDLs over an in-process
/// `HTTPClient` (no network), without the issuer's handler time, against its crypto floor:
/// per credential one P-256 keygen, one ES256 proof signature, and the credential's verification
/// crypto (issuerAuth signature, DS certificate signature by the IACA, the element digests).
///
/// Each round is a batch and a floor slice of about the same length, side by side, and the
/// ratio is the median of the rounds' ratios: both sides of a round see the same machine (on a
/// shared host, a burst of load from elsewhere lasting a batch or two slows both alike). Which
/// side runs first alternates, and each side is warmed up before it is timed (untimed floors
/// before a slice, an untimed batch before a batch), so neither pays for the caches the other
/// left cold. The floor in a loop of its own, and the ratio to it, are printed as a check.
func issuanceBenchmark(_ h: inout Harness) async throws {
  let fixture = try await IssuanceBenchFixture()
  defer { try? FileManager.default.removeItem(atPath: fixture.home.directory) }
  let count = 10
  let rounds = 21
  for _ in 0..<2 { _ = try await issueBatch(fixture, count: count) }  // warm-up
  // For `perf record`: only the batches, no floor.
  if let loop = ProcessInfo.processInfo.environment["DCBENCH_PROFILE_LOOP"], let n = Int(loop) {
    for _ in 0..<n { _ = try await issueBatch(fixture, count: count) }
    return
  }
  let floor = try await IssuanceFloor(fixture)
  var timings: [IssuanceBatchTiming] = []
  var floorSlices: [Double] = []
  var ratios: [Double] = []
  for round in 0..<rounds {
    // Which side runs first alternates, so neither always follows the other.
    var slice = 0.0
    if !round.isMultiple(of: 2) { slice = try floor.slice() }
    // As the slice, the batch is timed warm: after an untimed one.
    _ = try await issueBatch(fixture, count: count)
    let timing = try await issueBatch(fixture, count: count)
    if round.isMultiple(of: 2) { slice = try floor.slice() }
    timings.append(timing)
    floorSlices.append(slice)
    ratios.append(timing.wallet / Double(count) / slice)
  }
  func report(_ name: String, _ value: Double) {
    print(
      "  " + name.padding(toLength: 58, withPad: " ", startingAt: 0)
        + String(format: "%12.2f µs", value / 1000))
    h.results.append((name, value))
  }
  let n = Double(count)
  report("issuer handler time per credential (excluded)", Harness.median(timings.map(\.issuer)) / n)
  report(
    "wallet: offer → issued (keys, proofs, HTTP, parse) /cred",
    Harness.median(timings.map(\.protocolWallet)) / n)
  report(
    "wallet: keys + verify + store (one transaction) /cred",
    Harness.median(timings.map(\.keysVerifyAndStore)) / n)
  report(
    "wallet-side total per credential (batch of 10)", Harness.median(timings.map(\.wallet)) / n)
  h.measure("  of which verify before storage alone /cred", iterations: 200) {
    blackHole(floor.verifyBeforeStorage())
  }
  report("floor: keygen + ES256 sign + 2 verify + digests", Harness.median(floorSlices))
  let ownLoop = try h.measure("  (the floor in a loop of its own)", iterations: 300) {
    try floor.once()
  }
  let sorted = ratios.sorted()
  print(
    String(
      format: "  (%d rounds of a batch and a floor slice; round ratios: quartiles %.2f-%.2f)",
      rounds, sorted[rounds / 4], sorted[(rounds * 3) / 4]))
  Harness.ratio(
    "  (wallet / the floor in its own loop)", Harness.median(timings.map(\.wallet)) / n / ownLoop)
  Harness.ratio("wallet per credential / crypto floor", Harness.median(ratios), aim: 2)
}

/// The crypto floor of one issued credential, on a credential of the bench's issuer: one P-256
/// keygen, one ES256 signature over a key proof's size, the issuerAuth signature check, the DS
/// certificate's signature check by the IACA, and the digests of the credential's elements.
struct IssuanceFloor {
  let fixture: IssuanceBenchFixture
  let msoMessage: [UInt8]
  let msoSignature: ECDSASignature
  let iacaKey: ECPublicKey
  let tbs: [UInt8]
  let dsSignature: ECDSASignature
  let items: [[UInt8]]
  let proofInput = [UInt8](repeating: 0x41, count: 420)  // header.payload of a jwk key proof
  let payload: DCWallet.IssuedCredential.Payload
  let sampleKey: ECPublicKey
  let expected = IssuanceExpectation(
    credentialIssuer: IssuanceBenchFixture.issuerID, configurationID: "mDL", format: .msoMdoc,
    type: IssuanceBenchFixture.doctype)
  let now = Date()

  init(_ fixture: IssuanceBenchFixture) async throws {
    self.fixture = fixture
    let sample = try await fixture.issuanceClient.issuePreAuthorized(
      offer: try fixture.service.createOffer(
        configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false)
      ).offer, txCode: nil)
    guard let first = sample.issued.first else { throw BenchError("no sample credential") }
    let issuerSignedBytes = try first.credential.mdocIssuerSigned()
    let issuerSigned = try IssuerSigned(bytes: issuerSignedBytes)
    guard let mso = issuerSigned.issuerAuth.payload else { throw BenchError("no MSO") }
    msoMessage = [UInt8](repeating: 0x5A, count: mso.count + 24)  // + Sig_structure framing
    msoSignature = try fixture.dsKey.signature(for: msoMessage)
    iacaKey = try fixture.iaca.publicKey.ecPublicKey.unwrapOr(BenchError("IACA key"))
    tbs = fixture.documentSigner.tbsCertificateBytes
    dsSignature = try ECDSASignature(
      derRepresentation: fixture.documentSigner.signature, curve: .p256)
    guard iacaKey.isValidSignature(dsSignature, for: tbs) else {
      throw BenchError("the DS signature does not verify")
    }
    items = issuerSigned.nameSpaces.flatMap(\.items).map(\.encoded.bytes)
    payload = .msoMdoc(issuerSigned: issuerSignedBytes)
    sampleKey = try first.deviceKey.unwrapOr(BenchError("no sample key")).publicKey
  }

  func once() throws {
    let key = try ECPrivateKey(curve: .p256)
    blackHole(try key.signature(for: proofInput))
    blackHole(fixture.dsKey.publicKey.isValidSignature(msoSignature, for: msoMessage))
    blackHole(iacaKey.isValidSignature(dsSignature, for: tbs))
    for item in items { blackHole(SHA256.hash(data: item)) }
  }

  /// The floor per credential over a slice of about a batch's length, after a few unmeasured
  /// rounds that bring its caches back.
  func slice(iterations: Int = 24, warmUp: Int = 6) throws -> Double {
    for _ in 0..<warmUp { try once() }
    let start = Harness.now()
    for _ in 0..<iterations { try once() }
    return Double(Harness.now() - start) / Double(iterations)
  }

  /// Verification before storage alone (no store), on the sample credential.
  func verifyBeforeStorage() -> Result<VerifiedIssuedCredential, IssuanceRejection> {
    IssuedCredentialVerifier.verify(
      payload, deviceKey: sampleKey, expected: expected, walletAnchors: [fixture.iaca], at: now)
  }
}

extension Optional {
  func unwrapOr(_ error: some Error) throws -> Wrapped {
    guard let self else { throw error }
    return self
  }
}
