import DCHTTP
import DCHTTPServer
import DCJOSE
import DCJSON
import DCVerifier
import Foundation

/// One load run: `clients` tasks each driving presentations one after another over its own
/// kept-alive connections until the deadline; each presentation's latency, and the ones that did
/// not end verified.
struct LoadRun {
  var latencies: [Double] = []
  var errors = 0
  var elapsed: Double = 0

  func percentile(_ p: Double) -> Double {
    guard !latencies.isEmpty else { return .nan }
    let sorted = latencies.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
  }

  static func run(
    _ setup: LoadSetup, _ instances: [LoadInstance], clients: Int, seconds: Double
  ) async throws -> LoadRun {
    let start = Date()
    let deadline = start.addingTimeInterval(seconds)
    let results = await withTaskGroup(of: LoadRun.self) { group in
      for worker in 0..<clients {
        group.addTask {
          // Each client keeps its connections open, as a browser or a wallet app does.
          let client = KeepAliveHTTPClient()
          var run = LoadRun()
          var k = worker
          while Date() < deadline {
            let began = Date()
            let a = instances[k % instances.count]
            let b = instances[(k + 1) % instances.count]
            k += 1
            if (try? await presentation(setup, client, create: a, serve: b)) == true {
              run.latencies.append(Date().timeIntervalSince(began))
            } else {
              run.errors += 1
            }
          }
          return run
        }
      }
      return await group.reduce(into: LoadRun()) {
        $0.latencies += $1.latencies
        $0.errors += $1.errors
      }
    }
    var total = results
    total.elapsed = Date().timeIntervalSince(start)
    return total
  }

  /// One verified presentation over HTTP: made on `create`, fetched from and read on `serve`,
  /// answered to `create`. True when the result read back is verified.
  static func presentation(
    _ setup: LoadSetup, _ client: any HTTPClient, create: LoadInstance,
    serve: LoadInstance
  ) async throws -> Bool {
    let made = try await client.send(
      HTTPRequest(
        method: .post, url: try url(create.base + "/transactions"),
        headers: ["Content-Type": "application/json"],
        body: JSONValue.object([("dcql_query", LoadSetup.query)]).serializedBytes()))
    let created = try JSONValue(parsing: made.body)
    guard made.status == 201, let id = created["transaction_id"]?.string,
      let uri = created["authorization_request_uri"]?.string,
      let requestURI = URLComponents(string: uri)?.queryItems?.first(where: {
        $0.name == "request_uri"
      })?.value
    else { throw BenchError("POST /transactions: \(made.status)") }
    let fetched = try await client.send(
      HTTPRequest(
        method: .get,
        url: try url(requestURI.replacingOccurrences(of: create.base, with: serve.base))))
    guard fetched.status == 200 else { throw BenchError("request_uri: \(fetched.status)") }
    let request = try JSONValue(
      parsing: try CompactJWS(String(decoding: fetched.body, as: UTF8.self)).payload)
    let posted = try await client.send(
      HTTPRequest(
        method: .post, url: try url(request["response_uri"]?.string ?? ""),
        headers: ["Content-Type": "application/x-www-form-urlencoded"],
        body: try setup.responseBody(request)))
    guard posted.status == 200 else { throw BenchError("response_uri: \(posted.status)") }
    let result = try await client.send(
      HTTPRequest(method: .get, url: try url(serve.base + "/transactions/" + id)))
    return try JSONValue(parsing: result.body)["status"]?.string == "verified"
  }

  static func url(_ text: String) throws -> URL {
    guard let url = URL(string: text) else { throw BenchError("not a URL: \(text)") }
    return url
  }
}

/// The server's cost per verified presentation against the same verification in process: one
/// client, presentations one after another, alternating slices of the three sides (in process;
/// through the server with a new connection per request; through the server over kept-alive
/// connections, as a browser or wallet app sends them), the median of the per-slice ratios.
/// Every side includes the wallet's work (KB-JWT, JWE) and the verification; the server sides
/// add loopback HTTP, the JSON frontend API and the SQLite store.
func serverCostRatio(_ setup: LoadSetup) async throws {
  let directory = NSTemporaryDirectory() + "dcbench-ratio-\(getpid())"
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  let instance = try LoadInstance(
    setup, store: try SQLitePresentationTransactionStore(path: directory + "/t.sqlite"))
  defer { instance.server.stop() }
  var configuration = setup.configuration
  configuration.baseURL = "http://localhost:1"
  let local = PresentationVerifier(configuration: configuration)
  let stored = PresentationVerifier(
    configuration: configuration,
    store: try SQLitePresentationTransactionStore(path: directory + "/local.sqlite"))
  let client = URLSessionHTTPClient(configuration: .init(policy: .development))
  let keepAlive = KeepAliveHTTPClient()
  func inProcess(_ local: PresentationVerifier = local) async throws {
    let created = try await local.createTransaction(dcqlQuery: LoadSetup.query)
    let requestID = String(
      (URLComponents(string: created.authorizationRequestURI)?.queryItems?.first {
        $0.name == "request_uri"
      }?.value ?? "").split(separator: "/").last ?? "")
    let jws = try await local.requestObject(requestID: requestID, method: .get)
    let request = try JSONValue(parsing: try CompactJWS(jws).payload)
    _ = try await local.receiveResponse(requestID: requestID, body: try setup.responseBody(request))
    guard case .verified = try await local.result(transactionID: created.transactionID) else {
      throw BenchError("not verified in process")
    }
  }
  func served(_ client: any HTTPClient) async throws {
    guard try await LoadRun.presentation(setup, client, create: instance, serve: instance) else {
      throw BenchError("not verified by the server")
    }
  }
  func side(_ index: Int) async throws {
    switch index {
    case 0: try await inProcess()
    case 1: try await served(client)
    default: try await served(keepAlive)
    }
  }
  for _ in 0..<10 { for index in 0..<3 { try await side(index) } }
  var (ratios, keptRatios): ([Double], [Double]) = ([], [])
  var (localTimes, serverTimes, keptTimes): ([Double], [Double], [Double]) = ([], [], [])
  for slice in 0..<14 {
    var times = [0.0, 0.0, 0.0]
    // Each slice in another order, so no side always follows the same one.
    let order = [[0, 1, 2], [2, 1, 0], [1, 2, 0], [0, 2, 1], [2, 0, 1], [1, 0, 2]][slice % 6]
    for index in order {
      let start = Harness.now()
      for _ in 0..<10 { try await side(index) }
      times[index] = Double(Harness.now() - start) / 10
    }
    localTimes.append(times[0])
    serverTimes.append(times[1])
    keptTimes.append(times[2])
    ratios.append(times[1] / times[0])
    keptRatios.append(times[2] / times[0])
  }
  var storedTimes: [Double] = []
  for _ in 0..<7 {
    let start = Harness.now()
    for _ in 0..<10 { try await inProcess(stored) }
    storedTimes.append(Double(Harness.now() - start) / 10)
  }
  print(
    String(
      format:
        "  one verified presentation: in process %.2f ms (in memory), %.2f ms (SQLite store);"
        + " through the server (HTTP + SQLite) %.2f ms, %.2f ms over kept-alive connections",
      Harness.median(localTimes) / 1e6, Harness.median(storedTimes) / 1e6,
      Harness.median(serverTimes) / 1e6, Harness.median(keptTimes) / 1e6))
  Harness.ratio("server / in process, a new connection per request", Harness.median(ratios))
  Harness.ratio("server / in process, kept-alive connections", Harness.median(keptRatios), aim: 2)
}
