import DCCBOR
import DCErrors
public import DCHTTP
import DCJSON
public import DCStatusList
public import DCX509
public import Foundation

/// What a verifier does with a credential's status (IETF Token Status List) when the list
/// cannot tell: the policy for an unknown status.
public struct StatusPolicy: Sendable, Hashable {
  /// Whether an unknown status (list unreachable, unverifiable, expired, index out of range,
  /// an unsupported reference) fails the verification.
  public var unknownFails: Bool

  /// A policy; by default an unknown status is reported and does not fail.
  public init(unknownFails: Bool = false) { self.unknownFails = unknownFails }

  /// Report an unknown status, do not fail on it.
  public static let `default` = StatusPolicy()
  /// Fail on an unknown status.
  package static let strict = StatusPolicy(unknownFails: true)
}

/// Whether a verification checks credential status, and through what.
public enum StatusChecking: Sendable {
  /// No status check: each credential's status is reported as skipped.
  case skip
  /// Each credential that references a status list is checked through the `StatusListChecker`
  /// that `checker` makes for the trust anchors the credential's issuer was verified with (the
  /// SAME anchors: HAIP, draft-ietf-oauth-status-list §8.3 step 3) and the verification time;
  /// an unknown outcome is treated per `policy`.
  case check(
    policy: StatusPolicy,
    checker: @Sendable (_ issuerAnchors: [Certificate], _ now: Date) -> StatusListChecker)

  /// Checks status by fetching each list with `httpClient` under `urlPolicy` (https only by
  /// default; plain http to loopback only under `.development`), or from `offlineTokens` when
  /// one's `sub` is the list's `uri`; one checker per verification and anchor set, so no cache
  /// outlives a verification.
  public static func fetching(
    httpClient: any HTTPClient, offlineTokens: [StatusListToken] = [],
    policy: StatusPolicy = .default, urlPolicy: HTTPURLPolicy = .standard
  ) -> StatusChecking {
    .check(policy: policy) { anchors, now in
      StatusListChecker(
        httpClient: httpClient, trustAnchors: anchors, urlPolicy: urlPolicy,
        offlineTokens: offlineTokens, clock: { now })
    }
  }
}

/// A credential's status as a verifier reports it, when it does not fail the verification.
public enum ReportedCredentialStatus: Sendable, Hashable {
  /// The list at `uri` says VALID (0x00) for `index`.
  case valid(uri: String, index: Int)
  /// The status could not be determined (`reason`; `detail` says what failed, for logs);
  /// reported, and a failure only under `StatusPolicy.strict`. Never reported as revoked.
  case unknown(uri: String?, reason: StatusUnknownReason, detail: String)
  /// The credential references no status list.
  case notReferenced
  /// The caller asked for no status check.
  case skipped
}

/// Why a credential's status failed the verification, as a typed error. The protocol errors the
/// verifiers throw carry it as their `underlying` error.
package typealias CredentialStatusError = DCError<CredentialStatusErrorCode>

/// What kind of status failure this is.
package struct CredentialStatusErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  package var description: String { name }

  /// The list says INVALID (0x01): revoked.
  package static let invalid = Self("invalid")
  /// The list says SUSPENDED (0x02).
  package static let suspended = Self("suspended")
  /// The list holds an application-specific value (neither VALID, INVALID nor SUSPENDED).
  package static let applicationSpecific = Self("applicationSpecific")
  /// The status is unknown and the policy fails on an unknown status.
  package static let unknown = Self("unknown")

  /// The credential at fault and what its status list says.
  package typealias Detail = CredentialStatusDetail
}

/// What a ``CredentialStatusError`` says of the credential whose status failed.
package struct CredentialStatusDetail: Sendable {
  /// The credential whose status failed (its docType, or its Credential Query id and vct).
  package let credential: String
  /// The status value the list holds, for invalid, suspended and application-specific.
  package let statusValue: UInt8?
  /// Why the status is unknown, for `unknown`.
  package let unknownReason: StatusUnknownReason?
}

extension DCError where Code == CredentialStatusErrorCode {
  init(
    _ code: CredentialStatusErrorCode, _ reason: String, credential: String,
    statusValue: UInt8? = nil, unknownReason: StatusUnknownReason? = nil,
    file: String = #fileID, line: UInt = #line
  ) {
    self.init(
      code, reason,
      detail: CredentialStatusDetail(
        credential: credential, statusValue: statusValue, unknownReason: unknownReason),
      file: file, line: line)
  }

  /// The credential whose status failed (its docType, or its Credential Query id and vct).
  package var credential: String { detail?.credential ?? "" }
  /// The status value the list holds, for invalid, suspended and application-specific.
  package var statusValue: UInt8? { detail?.statusValue }
  /// Why the status is unknown, for `unknown`.
  package var unknownReason: StatusUnknownReason? { detail?.unknownReason }
}

/// What a verified credential carries for its status.
enum StatusSource {
  /// An SD-JWT VC's `status` claim value, if any (draft §6.2).
  case sdJWT(JSONValue?)
  /// An mdoc's MSO `status`, if any (ISO 18013-5 second edition; draft §6.3).
  case mdoc(CBOR?)

  /// The reference, or nil when none; throws when the claim is malformed.
  func referencedStatus() throws(StatusListError) -> ReferencedStatus? {
    switch self {
    case .sdJWT(let claim):
      guard let claim else { return nil }
      return try ReferencedStatus.sdJWT(payload: .object([("status", claim)]))
    case .mdoc(let status):
      guard let status else { return nil }
      return try ReferencedStatus.mdoc(status: status)
    }
  }

  /// The form of the list to fetch: JWT for an SD-JWT VC, CWT for an mdoc (draft §8.1).
  var format: StatusListToken.Format {
    switch self {
    case .sdJWT: .jwt
    case .mdoc: .cwt
    }
  }
}

/// The checkers of one verification, one per anchor set, made when first needed.
struct StatusCheckRun {
  let checking: StatusChecking
  let now: Date
  private var checkers: [[Certificate]: StatusListChecker] = [:]

  init(_ checking: StatusChecking, now: Date) {
    self.checking = checking
    self.now = now
  }

  /// The checker for `anchors`, made by `make` the first time they are seen.
  private mutating func checker(
    for anchors: [Certificate],
    making make: (_ issuerAnchors: [Certificate], _ now: Date) -> StatusListChecker
  ) -> StatusListChecker {
    if let made = checkers[anchors] { return made }
    let checker = make(anchors, now)
    checkers[anchors] = checker
    return checker
  }

  /// Checks one verified credential's status: `source` is what the credential carries,
  /// `anchors` the trust anchors its issuer was verified with and `issuerAnchor` the one its
  /// chain reached, which the list must chain to as well (draft-ietf-oauth-status-list, "Key
  /// Resolution and Trust Management": the same issuer, or a Status Issuer the same anchor
  /// certified); without it the status is unknown (`untrusted`).
  ///
  /// Runs only after the credential's own signature and chain verified (draft-ietf-oauth-status-list
  /// §8.3: the Relying Party first validates the Referenced Token). Returns the outcome to report;
  /// throws when the status fails the verification: INVALID, SUSPENDED or an
  /// application-specific value, or an unknown status under a strict policy. A malformed or
  /// unsupported reference is unknown, never revoked.
  mutating func outcome(
    credential: String, source: StatusSource, anchors: [Certificate], issuerAnchor: Certificate?
  ) async throws(CredentialStatusError) -> ReportedCredentialStatus {
    guard case .check(let policy, let make) = checking else { return .skipped }
    let result: StatusCheckResult
    var reference: StatusReference?
    do {
      guard let referenced = try source.referencedStatus() else { return .notReferenced }
      if case .statusList(let found) = referenced { reference = found }
      let checker = checker(for: anchors, making: make)
      if let issuerAnchor {
        result = await checker.check(
          referenced, format: source.format, issuer: StatusListIssuer(anchor: issuerAnchor))
      } else {
        result = .unknown(.untrusted, detail: "the credential's chain reached no issuer anchor")
      }
    } catch {
      result = .unknown(.malformed, detail: error.reason)
    }
    let place = reference.map { " in \($0.uri) at index \($0.index)" } ?? ""
    switch result {
    case .valid:
      guard let reference else {
        return .unknown(uri: nil, reason: .unsupported, detail: "no status list reference")
      }
      return .valid(uri: reference.uri, index: reference.index)
    case .invalid:
      throw CredentialStatusError(
        .invalid, "\(credential): status invalid (revoked)\(place)", credential: credential,
        statusValue: 0x01)
    case .suspended:
      throw CredentialStatusError(
        .suspended, "\(credential): status suspended\(place)", credential: credential,
        statusValue: 0x02)
    case .applicationSpecific(let value):
      throw CredentialStatusError(
        .applicationSpecific,
        "\(credential): status \(value) (application-specific)\(place)", credential: credential,
        statusValue: value)
    case .unknown(let reason, let detail):
      if policy.unknownFails {
        throw CredentialStatusError(
          .unknown,
          "\(credential): status unknown (\(reason.rawValue): \(detail)) and the policy requires "
            + "a known status", credential: credential, unknownReason: reason)
      }
      return .unknown(uri: reference?.uri, reason: reason, detail: detail)
    }
  }
}
