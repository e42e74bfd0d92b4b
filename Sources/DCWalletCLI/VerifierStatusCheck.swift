import DCHTTP
import DCJSON
import DCStatusList
import DCVerifier
import Foundation

/// `verifier verify`'s (and `read`'s) status options: the checker it uses, or none.
enum VerifierStatusCheck {
  /// `--no-status-check`: skipped; `--status-list FILE...`: those tokens only, matched by their
  /// `sub` to each credential's `uri`, nothing fetched; otherwise each list is fetched from its
  /// `uri` over `URLSessionHTTPClient` (https, or http on loopback), with no cache between runs.
  /// `command` names the command in a usage error.
  static func checking(
    _ args: ParsedArguments, command: String = VerifierCommand.verifySpec.path
  ) throws -> StatusChecking {
    let files = args.all("status-list")
    if args.flag("no-status-check") {
      guard files.isEmpty else {
        throw UsageError(
          "--no-status-check and --status-list exclude each other", command: command)
      }
      return .skip
    }
    if !files.isEmpty {
      let tokens = try files.map { path in
        do {
          return try StatusListToken(bytes: try Files.read(path))
        } catch let error as StatusListError {
          throw CommandFailure("\(path) is not a status list token: \(error.reason)")
        }
      }
      // Offline: nothing is fetched; a list no token's sub names is unreachable (unknown).
      return .fetching(httpClient: OfflineHTTPClient(), offlineTokens: tokens)
    }
    // A token may be as large as StatusListLimits.maximumTokenSize (the client's default cap is
    // 1 MiB, sized for OpenID4VCI messages).
    return .fetching(
      httpClient: URLSessionHTTPClient(
        configuration: .init(
          policy: .development, maxResponseBytes: StatusListLimits.maximumTokenSize)),
      urlPolicy: .development)
  }
}

/// The words `verifier verify` prints for a status check.
enum VerifierStatusText {
  /// The detail of a status check that did not fail.
  static func detail(_ outcome: ReportedCredentialStatus) -> String {
    switch outcome {
    case .valid(let uri, let index): "valid (index \(index) of \(uri))"
    case .unknown(_, let reason, let detail):
      "unknown (\(reasonText(reason)): \(detail)); not a failure"
    case .notReferenced: "not referenced (the credential names no status list)"
    case .skipped: "skipped (--no-status-check)"
    }
  }

  /// Why a status is unknown, in words.
  static func reasonText(_ reason: StatusUnknownReason) -> String {
    switch reason {
    case .unreachable: "the list could not be fetched"
    case .urlNotAllowed: "the list's uri is not https (or http on loopback)"
    case .badSignature: "the list's signature does not verify"
    case .untrusted: "the list is not signed under the credential issuer's anchors"
    case .issuerMismatch: "the list is signed under another anchor than the credential's issuer"
    case .subjectMismatch: "the list's sub is not the credential's uri"
    case .expired: "the list has expired"
    case .indexOutOfRange: "the index is outside the list"
    case .tooLarge: "the list is too large"
    case .malformed: "the list or the status claim is malformed"
    case .unsupported: "the status mechanism is not supported"
    }
  }

  /// The status outcome as JSON: `{"status": "valid" | "unknown" | "not-referenced" |
  /// "skipped", "reason"?, "uri"?, "index"?}`.
  static func json(_ outcome: ReportedCredentialStatus) -> JSONValue {
    switch outcome {
    case .valid(let uri, let index):
      .object([("status", "valid"), ("uri", .string(uri)), ("index", .integer(Int64(index)))])
    case .unknown(let uri, let reason, let detail):
      .object(
        [
          ("status", "unknown"), ("reason", .string(reason.rawValue)),
          ("detail", .string(detail)),
        ] + (uri.map { [("uri", JSONValue.string($0))] } ?? []))
    case .notReferenced: .object([("status", "not-referenced")])
    case .skipped: .object([("status", "skipped")])
    }
  }

  /// A verified credential's status check as JSON, `null` when it has none.
  static func json(_ credential: VerifiedCredential) -> JSONValue {
    for case .credentialStatus(_, let outcome) in credential.report.checks {
      return json(outcome)
    }
    return .null
  }

  /// The status checks of every credential of a response, in query id order.
  static func statusChecks(_ verified: VerifiedAuthorizationResponse) -> [VerificationCheck] {
    verified.credentials.sorted(by: { $0.key < $1.key }).flatMap { _, credentials in
      credentials.flatMap { credential in
        credential.report.checks.filter {
          if case .credentialStatus = $0 { true } else { false }
        }
      }
    }
  }
}

/// `--status-list` mode: a client that reaches nothing, so only the given tokens are used.
struct OfflineHTTPClient: HTTPClient {
  func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    throw HTTPError(
      .connectionFailed, "offline (--status-list): no token has sub \(request.url.absoluteString)")
  }
}
