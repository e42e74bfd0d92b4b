public import DCQL
public import DigitalCredentialsAPI
public import Foundation
import JOSE
import Mdoc
public import OpenID4VP
import SDJWT

/// An OpenID4VP request resolved against the wallet: the checked authorization request (with
/// the verifier's identity), the stored credentials offered to its DCQL query, and the
/// evaluation.
public struct OpenID4VPPresentation: Sendable {
  /// The checked request.
  public let request: AuthorizationRequest
  /// The credentials offered to the query, in the order the evaluation indexes them.
  public let credentials: [any DCQLCredential]
  /// What the query matched.
  public let evaluation: DCQLEvaluation

  /// The wallet id of an evaluated credential.
  public func credentialID(at index: Int) -> String? {
    switch credentials[index] {
    case let sdJWT as SDJWTCredential: sdJWT.id
    case let mdoc as MdocCredential: mdoc.id
    default: nil
    }
  }
}

/// What the holder agreed to share over OpenID4VP: per credential query, the credentials and the
/// concrete claims of each.
public struct OpenID4VPConsent: Sendable, Hashable {
  /// One credential to present.
  public struct Item: Sendable, Hashable {
    public let credentialID: String
    public let disclosed: [ClaimPathConcrete]
    /// Creates an item.
    public init(credentialID: String, disclosed: [ClaimPathConcrete]) {
      self.credentialID = credentialID
      self.disclosed = disclosed
    }
  }

  /// Items by credential query id.
  public let selections: [String: [Item]]

  /// Creates a consent.
  public init(selections: [String: [Item]]) { self.selections = selections }
}

/// Readable names of concrete claim paths, as `--disclose` takes them: `NAMESPACE/ELEMENT` for
/// mdoc claims, dotted paths (`address.locality`, `nationalities.0`) for SD-JWT claims.
public enum ClaimName {
  /// The name of a path for a credential format.
  public static func of(_ path: ClaimPathConcrete, format: String) -> String {
    let parts = path.components.map { component -> String in
      switch component {
      case .key(let key): key
      case .index(let index): String(index)
      }
    }
    return format == DCQLFormat.msoMdoc
      ? parts.joined(separator: "/") : parts.joined(separator: ".")
  }
}

extension Wallet {
  /// Resolves an OpenID4VP request (OpenID4VP 1.0 Appendix A): the signature, client id prefix,
  /// verifier chain and `expected_origins` for signed requests, then the DCQL query against the
  /// stored credentials of the requested types.
  func resolveOpenID4VP(_ request: ProtocolRequest, origin: WebOrigin) async throws
    -> OpenID4VPPresentation
  {
    guard let protocolID = OpenID4VPProtocol(rawValue: request.protocolIdentifier) else {
      throw WalletError(.refused, "unsupported protocol")
    }
    let authorization = try AuthorizationRequest(
      protocol: protocolID, data: request.data, origin: origin.serialized,
      verifierTrustAnchors: try await trustAnchors(role: .verifier), now: clock())
    var vcts: [String] = []
    var docTypes: [String] = []
    for query in authorization.dcqlQuery.credentials {
      vcts += query.meta.vctValues ?? []
      if let docType = query.meta.doctypeValue { docTypes.append(docType) }
    }
    var offered: [any DCQLCredential] = []
    for stored in try await store.credentials(format: .sdJWT, types: Array(Set(vcts))) {
      if let sdJWT = try? SDJWT(serialized: String(decoding: stored.issued, as: UTF8.self)),
        let credential = try? SDJWTCredential(id: stored.id, sdJWT: sdJWT)
      {
        offered.append(credential)
      }
    }
    for stored in try await store.credentials(format: .msoMdoc, types: Array(Set(docTypes))) {
      if let issuerSigned = try? IssuerSigned(bytes: stored.issued) {
        offered.append(MdocCredential(id: stored.id, issuerSigned: issuerSigned))
      }
    }
    let evaluation = authorization.dcqlQuery.evaluate(offered)
    guard evaluation.isSatisfied else {
      throw WalletError(
        .refused,
        "the stored credentials do not satisfy the DCQL query (\(evaluation.unsatisfiedReason ?? "no match"))"
      )
    }
    return OpenID4VPPresentation(
      request: authorization, credentials: offered, evaluation: evaluation)
  }

  /// Builds the presentations for a consent, signs them and returns the response data.
  func respondOpenID4VP(
    _ presentation: OpenID4VPPresentation, consent: OpenID4VPConsent, request: PresentationRequest
  ) async throws(WalletError) -> ProtocolResponse {
    let byID = Dictionary(
      presentation.credentials.indices.compactMap { index in
        presentation.credentialID(at: index).map { ($0, index) }
      },
      uniquingKeysWith: { first, _ in first })
    try await authenticateHolder(
      usesDeviceKey: true,
      reason:
        "Share \(consent.selections.values.joined().count) credential(s) with \(request.relyingParty)"
    )
    var presentations: [String: [CredentialPresentation]] = [:]
    var shared: [String] = []
    for (queryID, items) in consent.selections {
      for item in items {
        guard let index = byID[item.credentialID] else {
          throw WalletError(
            .refused, "credential \(item.credentialID) was not offered to the query")
        }
        let signer = try await signer(forCredential: item.credentialID)
        switch presentation.credentials[index] {
        case let sdJWT as SDJWTCredential:
          presentations[queryID, default: []].append(
            sdJWT.presentation(disclosing: item.disclosed, holderKey: signer))
          shared += item.disclosed.map { ClaimName.of($0, format: DCQLFormat.sdJWTVC) }
        case let mdoc as MdocCredential:
          presentations[queryID, default: []].append(
            mdoc.presentation(disclosing: item.disclosed, deviceKey: signer))
          shared += item.disclosed.map { ClaimName.of($0, format: DCQLFormat.msoMdoc) }
        default:
          throw WalletError(.refused, "credential \(item.credentialID) has an unsupported format")
        }
      }
    }
    do {
      let response = try presentation.request.respond(
        origin: request.origin.serialized, presentations: presentations, now: clock())
      await log(
        NewActivity(
          timestamp: clock(), protocolIdentifier: request.protocolIdentifier,
          origin: request.origin.serialized,
          relyingParty: request.relyingParty, outcome: .shared,
          credentialIDs: consent.selections.values.flatMap { $0.map(\.credentialID) },
          sharedItems: shared.sorted(),
          detail:
            "vp_token for \(presentations.keys.sorted().joined(separator: ", ")), \(presentation.request.responseMode.rawValue)"
        ))
      return ProtocolResponse(protocolIdentifier: request.protocolIdentifier, data: response.data)
    } catch {
      await logRefusal(request, reason: error.reason)
      throw WalletError(.refused, error.reason)
    }
  }
}

extension OpenID4VPPresentation {
  /// The consent a screen proposes: the query's default selection (OpenID4VP 1.0 §6.4).
  func proposedConsent() throws(WalletError) -> OpenID4VPConsent {
    let selection = evaluation.defaultSelection()
    guard !selection.isEmpty else {
      throw WalletError(.refused, "the DCQL query cannot be satisfied")
    }
    var selections: [String: [OpenID4VPConsent.Item]] = [:]
    for (queryID, candidates) in selection {
      selections[queryID] = candidates.compactMap { candidate in
        credentialID(at: candidate.credentialIndex).map {
          OpenID4VPConsent.Item(credentialID: $0, disclosed: candidate.disclosed)
        }
      }
    }
    return OpenID4VPConsent(selections: selections)
  }

  /// The default selection narrowed to chosen credentials and claims (by `ClaimName`).
  func consent(credentials: [String], disclose: [String]) throws(WalletError) -> OpenID4VPConsent {
    var selections: [String: [OpenID4VPConsent.Item]] = [:]
    let wanted = Set(disclose)
    var matchedNames = Set<String>()
    let defaults = evaluation.defaultSelection()
    for (queryID, match) in evaluation.matches {
      guard let chosenDefault = defaults[queryID] else { continue }
      var candidates = match.candidates
      if !credentials.isEmpty {
        candidates = candidates.filter {
          credentialID(at: $0.credentialIndex).map(credentials.contains) ?? false
        }
      }
      let picked = match.multiple ? candidates : Array(candidates.prefix(1))
      let usable = picked.isEmpty && credentials.isEmpty ? chosenDefault : picked
      var items: [OpenID4VPConsent.Item] = []
      for candidate in usable {
        guard let id = credentialID(at: candidate.credentialIndex) else { continue }
        let format = self.credentials[candidate.credentialIndex].format
        let disclosed = candidate.disclosed.filter { path in
          let name = ClaimName.of(path, format: format)
          if wanted.contains(name) { matchedNames.insert(name) }
          return wanted.isEmpty || wanted.contains(name)
        }
        if !disclosed.isEmpty { items.append(.init(credentialID: id, disclosed: disclosed)) }
      }
      if !items.isEmpty { selections[queryID] = items }
    }
    if let unknown = wanted.subtracting(matchedNames).sorted().first {
      throw WalletError(.refused, "\(unknown) was not requested")
    }
    guard !selections.isEmpty else {
      throw WalletError(.refused, "the chosen credentials and claims leave nothing to share")
    }
    return OpenID4VPConsent(selections: selections)
  }
}
