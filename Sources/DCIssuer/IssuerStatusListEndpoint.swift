package import DCHTTP
import DCOpenID4VCI
import DCStatusList
import DCX509
import Foundation

/// The two forms a status list token is published in (draft-ietf-oauth-status-list, "Status
/// List Request": content negotiation per RFC 9110).
package enum StatusListTokenForm: String, Sendable, Hashable, CaseIterable {
  /// `application/statuslist+jwt`, the default.
  case jwt = "application/statuslist+jwt"
  /// `application/statuslist+cwt`.
  case cwt = "application/statuslist+cwt"

  /// The form an `Accept` header asks for (RFC 9110 §12.5.1): the acceptable form of highest
  /// `q`, the JWT on a tie or for a wildcard (`*/*`, `application/*`) and without a header; nil
  /// when the header accepts neither form (then the answer is 406).
  package static func negotiate(accept: String?) -> StatusListTokenForm? {
    guard let accept, !accept.trimmingCharacters(in: .whitespaces).isEmpty else { return .jwt }
    var best: (form: StatusListTokenForm, quality: Double, specificity: Int)?
    var qualities: [StatusListTokenForm: (quality: Double, specificity: Int)] = [:]
    for range in accept.split(separator: ",") {
      let parts = range.split(separator: ";").map {
        $0.trimmingCharacters(in: .whitespaces).lowercased()
      }
      guard let type = parts.first, !type.isEmpty else { continue }
      var quality = 1.0
      for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
        quality = Double(parameter.dropFirst(2)).map { min(max($0, 0), 1) } ?? 0
      }
      // The most specific range that matches a form decides its quality (RFC 9110 §12.5.1).
      let matches: [(StatusListTokenForm, Int)] =
        switch type {
        case "*/*": StatusListTokenForm.allCases.map { ($0, 0) }
        case "application/*": StatusListTokenForm.allCases.map { ($0, 1) }
        default: StatusListTokenForm(rawValue: type).map { [($0, 2)] } ?? []
        }
      for (form, specificity) in matches
      where (qualities[form]?.specificity ?? -1) < specificity {
        qualities[form] = (quality, specificity)
      }
    }
    for form in StatusListTokenForm.allCases {
      guard let entry = qualities[form], entry.quality > 0 else { continue }
      if best == nil || entry.quality > best?.quality ?? 0 {
        best = (form, entry.quality, entry.specificity)
      }
    }
    return best?.form
  }
}

extension CredentialIssuerService {
  /// GET `/status-lists/<id>`: the status list as a freshly signed Status List Token
  /// (draft-ietf-oauth-status-list, "Status List Response"), JWT or CWT by the `Accept`
  /// header, with `Content-Type` naming the form; 404 for a list that does not exist (or when
  /// the issuer keeps no status lists), 406 for an `Accept` that takes neither form.
  package func handleStatusList(_ request: HTTPRequest, id: String) -> HTTPResponse {
    guard configuration.statusLists != nil, let number = Int(id), String(number) == id,
      let stored = try? store.statusList(id: number)
    else {
      return IssuerEndpointFailure("not_found", "no status list at this path", status: 404)
        .response
    }
    guard let form = StatusListTokenForm.negotiate(accept: request.headers["Accept"]) else {
      var failure = IssuerEndpointFailure(
        "not_acceptable",
        "a status list is served as application/statuslist+jwt or application/statuslist+cwt",
        status: 406)
      failure.headers["Vary"] = "Accept"
      return failure.response
    }
    let body: [UInt8]
    do {
      body = try statusListToken(stored, form: form)
    } catch {
      return IssuerEndpointFailure(
        "server_error", "the status list token could not be signed", status: 500
      ).response
    }
    return HTTPResponse(
      status: 200,
      headers: [
        "Content-Type": form.rawValue, "Vary": "Accept",
        // Draft "Status List Request": the endpoint SHOULD support CORS for browser clients.
        "Access-Control-Allow-Origin": "*",
      ], body: body)
  }
}

extension CredentialIssuerService {
  /// The status list `stored` as a Status List Token in `form`, signed now by the issuer's
  /// document signer with its chain (`x5c` / `x5chain`; draft "Key Resolution and Trust
  /// Management": the Referenced Token's own key and chain), `sub` its URL, `iat` now, `exp`
  /// and `ttl` from ``IssuerConfiguration/statusLists``.
  func statusListToken(_ stored: StoredStatusList, form: StatusListTokenForm) throws -> [UInt8] {
    let settings = configuration.statusLists ?? StatusListSettings()
    var list = StatusList(bits: try StatusList.bits(stored.bits), count: stored.size)
    for (index, value) in stored.statuses.sorted(by: { $0.key < $1.key }) {
      try list.setStatus(Status(rawValue: value), at: index)
    }
    let now = self.now
    let token = try StatusListToken(
      format: form == .jwt ? .jwt : .cwt,
      subject: endpoints.statusListURL(id: stored.id).absoluteString,
      issuer: configuration.credentialIssuer.string, issuedAt: now,
      expiresAt: now.addingTimeInterval(settings.tokenLifetime),
      timeToLive: settings.timeToLive, statusList: list,
      certificateChain: configuration.certificateChain.map(\.derBytes),
      signer: configuration.signer)
    return token.encoded
  }
}
