public import CBOR
import CryptoPrimitives
public import DCQL
public import DigitalCredentialsAPI
import Foundation
public import JSON
import Mdoc
import OpenID4VP
import X509Certificates

/// A DC API request resolved against the wallet: what a consent screen shows, and what the
/// response will be built from.
public struct PresentationRequest: Sendable {
  /// The protocol-specific part.
  public enum Kind: Sendable {
    /// `org-iso-mdoc` (ISO/IEC TS 18013-7 Annex C).
    case mdoc(AnnexCPresentation)
    /// OpenID4VP 1.0 over the DC API.
    case openID4VP(OpenID4VPPresentation)
  }

  /// The protocol being answered.
  public let protocolIdentifier: String
  /// The origin the platform reported.
  public let origin: WebOrigin
  /// The protocol-specific request.
  public let kind: Kind
  /// Earlier requests of the envelope that could not be answered, with the reason.
  public let skipped: [(protocolIdentifier: String, reason: String)]

  /// Who asks, as far as the wallet could establish it.
  ///
  /// A name is verified only through a chain to a configured anchor: every doc request signed by
  /// a trusted reader (Annex C), or a signed request whose verifier chain is trusted (OpenID4VP
  /// Appendix A.3.2). A name from an untrusted or self-signed certificate is never used.
  public var requester: Requester {
    switch kind {
    case .mdoc(let presentation):
      if presentation.isReaderTrusted,
        let reader = presentation.documentRequests.lazy.compactMap(\.reader).first
      {
        return .verified(name: reader.name, origin: origin)
      }
      return .unverified(origin: origin)
    case .openID4VP(let presentation):
      if case .authenticated(let verifier) = presentation.request.verifier {
        return .verified(name: verifier.clientID.description, origin: origin)
      }
      return .unverified(origin: origin)
    }
  }

  /// Who asks, for logs: the verified name, else the origin.
  public var relyingParty: String { requester.verifiedName ?? origin.serialized }

  /// The consent a consent screen proposes before the user changes anything: the minimum the
  /// request allows (one credential per query, no optional credential set).
  public func proposedConsent() throws(WalletError) -> PresentationConsent {
    switch kind {
    case .mdoc(let presentation):
      do {
        return .mdoc(try presentation.proposedConsent())
      } catch {
        throw WalletError(.refused, error.reason)
      }
    case .openID4VP(let presentation):
      return .openID4VP(try presentation.proposedConsent())
    }
  }

  /// A consent narrowed by the holder's choices: which credentials to use (empty: the minimum
  /// the request allows) and which claims to disclose among those requested (empty: everything
  /// requested that the credential holds; mdoc claims are written `NAMESPACE/ELEMENT`).
  ///
  /// For OpenID4VP, each credential set answers the first option (in the query's order) the
  /// chosen credentials satisfy, and an optional set is answered only when the named credentials
  /// satisfy one of its options. Claims named that were not requested are ignored; when none of
  /// the named claims was requested, nothing is left to share and the request is refused.
  public func consent(credentials: [String], disclose: [String]) throws(WalletError)
    -> PresentationConsent
  {
    switch kind {
    case .openID4VP(let presentation):
      return .openID4VP(try presentation.consent(credentials: credentials, disclose: disclose))
    case .mdoc(let presentation):
      var chosen: [MdocConsent.Document] = []
      let wanted = Set(disclose)
      let chosenCredentials = Set(credentials)
      guard let indices = presentation.docRequestsToAnswer(credentials: chosenCredentials) else {
        throw WalletError(
          .refused,
          chosenCredentials.isEmpty
            ? "no stored credential can answer the request"
            : "the chosen credentials leave nothing to share (none answers the request, or a mandatory use case needs others)"
        )
      }
      var matched = false
      for index in indices {
        let docRequest = presentation.documentRequests[index]
        let candidate =
          chosenCredentials.isEmpty
          ? docRequest.candidates.first
          : docRequest.candidates.first { chosenCredentials.contains($0.credentialID) }
        guard let candidate else { continue }
        var elements: [String: Set<String>] = [:]
        for element in candidate.match.available
        where wanted.isEmpty || wanted.contains("\(element.nameSpace)/\(element.identifier)") {
          elements[element.nameSpace, default: []].insert(element.identifier)
          matched = true
        }
        if !elements.isEmpty {
          chosen.append(
            .init(docRequestIndex: index, credentialID: candidate.credentialID, elements: elements))
        }
      }
      guard matched, !chosen.isEmpty else {
        throw WalletError(.refused, "the chosen credentials and claims leave nothing to share")
      }
      let consent = MdocConsent(documents: chosen)
      do {
        try presentation.validate(consent)
      } catch {
        throw WalletError(.refused, error.reason)
      }
      return .mdoc(consent)
    }
  }

  /// What a consent screen shows for a consent, as values: who asks and whether that is
  /// verified, each requested document or Credential Query with its candidates, what the consent
  /// presents of it claim by claim, and the credential sets with their options.
  ///
  /// Built in time linear in the size of the request and the consent.
  public func screen(for consent: PresentationConsent) -> ConsentScreen {
    switch (kind, consent) {
    case (.mdoc(let presentation), .mdoc(let mdocConsent)):
      let answered = Set(mdocConsent.documents.map(\.docRequestIndex))
      let answerable = Set(
        presentation.documentRequests.filter { !$0.candidates.isEmpty }.map(\.index))
      return ConsentScreen(
        origin: origin, protocolIdentifier: protocolIdentifier, requester: requester,
        documents: Self.documents(presentation, mdocConsent),
        // DeviceRequestInfo use cases are Annex C's credential sets: document sets as options.
        credentialSets: presentation.useCases.map { useCase in
          ConsentScreen.CredentialSet(
            required: useCase.mandatory,
            options: useCase.documentSets.map { $0.map(String.init) },
            satisfiableOptions: useCase.documentSets.indices.filter {
              useCase.documentSets[$0].allSatisfy(answerable.contains)
            },
            answeredOption: useCase.documentSets.firstIndex { $0.allSatisfy(answered.contains) },
            purpose: nil)
        }, transactionDataTypes: [])
    case (.openID4VP(let presentation), .openID4VP(let consent)):
      let answered = Set(consent.selections.keys)
      let sets = zip(
        presentation.request.dcqlQuery.credentialSets ?? [],
        presentation.evaluation.credentialSets
      ).map { set, result in
        ConsentScreen.CredentialSet(
          required: set.required, options: set.options,
          satisfiableOptions: result.satisfiableOptions,
          answeredOption: set.options.firstIndex { $0.allSatisfy(answered.contains) },
          purpose: set.purpose.map(Self.purposeText))
      }
      return ConsentScreen(
        origin: origin, protocolIdentifier: protocolIdentifier, requester: requester,
        documents: Self.documents(presentation, consent), credentialSets: sets,
        transactionDataTypes: presentation.request.transactionData.map(\.type))
    default:
      return ConsentScreen(
        origin: origin, protocolIdentifier: protocolIdentifier, requester: requester,
        documents: [], credentialSets: [], transactionDataTypes: [])
    }
  }

  private static func purposeText(_ value: ClaimValue) -> String {
    if case .string(let text) = value { return text }
    return value.description
  }

  private static func documents(_ presentation: AnnexCPresentation, _ consent: MdocConsent)
    -> [ConsentScreen.Document]
  {
    var consented: [Int: MdocConsent.Document] = [:]
    for document in consent.documents where consented[document.docRequestIndex] == nil {
      consented[document.docRequestIndex] = document
    }
    return presentation.documentRequests.map { docRequest in
      let authentication: ConsentScreen.Authentication
      switch docRequest.reader?.trust {
      case .trusted?: authentication = .trusted(name: docRequest.reader?.name ?? "")
      case .untrusted(let reason)?:
        authentication = .untrusted(reason: reason)
      case nil: authentication = .unsigned
      }
      var presentations: [ConsentScreen.Presentation] = []
      if let chosen = consented[docRequest.index],
        let candidate = docRequest.candidates.first(where: {
          $0.credentialID == chosen.credentialID
        })
      {
        // One pass over the match: the requested elements are in request order with their values.
        let claims = candidate.match.elements.map { element in
          ConsentScreen.Claim(
            path: ClaimPath([.key(element.nameSpace), .key(element.identifier)]
            ),
            intentToRetain: element.intentToRetain,
            shared: chosen.elements[element.nameSpace]?.contains(element.identifier) ?? false,
            value: element.value.map(ConsentScreen.Value.cbor))
        }
        presentations.append(.init(credentialID: chosen.credentialID, claims: claims))
      }
      return ConsentScreen.Document(
        id: String(docRequest.index), format: DCQLFormat.msoMdoc,
        types: [docRequest.itemsRequest.docType], authentication: authentication,
        candidateIDs: docRequest.candidates.map(\.credentialID),
        requestedClaims: docRequest.itemsRequest.requestedElements.map {
          ConsentScreen.RequestedClaim(
            path: [.key($0.nameSpace), .key($0.element.identifier)],
            intentToRetain: $0.element.intentToRetain)
        },
        presentations: presentations)
    }
  }

  private static func documents(_ presentation: OpenID4VPPresentation, _ consent: OpenID4VPConsent)
    -> [ConsentScreen.Document]
  {
    presentation.request.dcqlQuery.credentials.map { query in
      let candidates = presentation.candidates(of: query.id)
      var byID: [String: (index: Int, disclosed: [ClaimPath])] = [:]
      for (id, candidate) in candidates where byID[id] == nil {
        byID[id] = (candidate.credentialIndex, candidate.disclosed)
      }
      let presentations = (consent.selections[query.id] ?? []).map { item in
        let shared = Set(item.disclosed)
        let root = byID[item.credentialID].map { presentation.credentials[$0.index].claims }
        let claims = (byID[item.credentialID]?.disclosed ?? item.disclosed).map { path in
          ConsentScreen.Claim(
            path: path,
            intentToRetain: nil, shared: shared.contains(path),
            value: root.flatMap { Self.value(at: path, in: $0) }.map(ConsentScreen.Value.json))
        }
        return ConsentScreen.Presentation(credentialID: item.credentialID, claims: claims)
      }
      return ConsentScreen.Document(
        id: query.id, format: query.format,
        types: query.meta.vctValues ?? query.meta.doctypeValue.map { [$0] } ?? [],
        authentication: nil, candidateIDs: candidates.map(\.credentialID),
        requestedClaims: (query.claims ?? []).map {
          ConsentScreen.RequestedClaim(path: $0.path.components, intentToRetain: $0.intentToRetain)
        },
        presentations: presentations)
    }
  }

  private static func value(at path: ClaimPath, in root: ClaimValue) -> ClaimValue? {
    var value = root
    for component in path.components {
      switch (component, value) {
      case (.key(let key), .object(let members)):
        guard let member = members[key] else { return nil }
        value = member
      case (.index(let index), .array(let elements)) where elements.indices.contains(index):
        value = elements[index]
      default:
        return nil
      }
    }
    return value
  }

  /// A readable consent screen: who asks, whether they are verified, the credential sets and
  /// their options, and each requested item with intent to retain and the value that would be
  /// shared.
  public func consentScreen(for consent: PresentationConsent) -> String {
    screen(for: consent).text
  }
}

/// Who asks for credentials, as far as the wallet could establish it.
public enum Requester: Sendable, Hashable {
  /// A name established through a chain to a configured anchor: the trusted reader's certificate
  /// name (Annex C) or the authenticated client identifier (OpenID4VP).
  case verified(name: String, origin: WebOrigin)
  /// Nothing beyond the origin the platform reported; a name the request may carry is not shown.
  case unverified(origin: WebOrigin)

  /// The verified name, nil when unverified.
  public var verifiedName: String? {
    if case .verified(let name, _) = self { return name }
    return nil
  }

  /// The origin the platform reported.
  public var origin: WebOrigin {
    switch self {
    case .verified(_, let origin), .unverified(let origin): origin
    }
  }

  /// How prompts name the requester: the verified name, else the origin marked unverified.
  var promptText: String {
    switch self {
    case .verified(let name, _): name
    case .unverified(let origin): "\(origin.serialized) (unverified)"
    }
  }
}

/// A consent screen as values, for any protocol (see `PresentationRequest.screen(for:)`).
public struct ConsentScreen: Sendable {
  /// How a doc request was signed (Annex C).
  public enum Authentication: Sendable, Hashable {
    /// Signed by a reader that chains to a configured reader anchor.
    case trusted(name: String)
    /// Signed, but the chain does not reach a configured anchor: the certificate's name is not
    /// established. The reason is for diagnostics and may quote the certificate's subject.
    case untrusted(reason: String)
    /// Not signed.
    case unsigned
  }

  /// A claim value as the credential holds it.
  public enum Value: Sendable, Hashable {
    /// An mdoc element value.
    case cbor(CBOR)
    /// An SD-JWT VC claim value.
    case json(ClaimValue)
  }

  /// A claim the request names, as the verifier wrote it.
  public struct RequestedClaim: Sendable, Hashable {
    /// The claims path (for mdoc, namespace and element identifier).
    public let path: [ClaimPathComponent]
    /// Whether the verifier says it will retain the claim (mdoc), when it says.
    public let intentToRetain: Bool?
  }

  /// One claim of a presented credential.
  public struct Claim: Sendable, Hashable {
    /// Where the claim is (for mdoc, namespace and element identifier).
    public let path: ClaimPath
    /// Whether the verifier says it will retain the claim (mdoc), when it says.
    public let intentToRetain: Bool?
    /// Whether the consent discloses it.
    public let shared: Bool
    /// The credential's value; nil when the credential does not hold the claim.
    public let value: Value?
  }

  /// A credential the consent presents, with every requested claim of it.
  public struct Presentation: Sendable, Hashable {
    /// The wallet id of the credential.
    public let credentialID: String
    /// The requested claims the credential was matched on, in request order.
    public let claims: [Claim]
  }

  /// One doc request (Annex C) or Credential Query (OpenID4VP).
  public struct Document: Sendable, Hashable {
    /// The doc request's index as text, or the Credential Query id.
    public let id: String
    /// `mso_mdoc` or `dc+sd-jwt` (or another format the query names).
    public let format: String
    /// The requested docType, or the accepted `vct` values.
    public let types: [String]
    /// How the doc request was signed (Annex C); nil for OpenID4VP, where `requester` says it.
    public let authentication: Authentication?
    /// The stored credentials that can answer it.
    public let candidateIDs: [String]
    /// The claims the verifier requested.
    public let requestedClaims: [RequestedClaim]
    /// What the consent presents; empty when it is not answered.
    public let presentations: [Presentation]
  }

  /// A credential set (OpenID4VP `credential_sets`) or use case (Annex C DeviceRequestInfo).
  public struct CredentialSet: Sendable, Hashable {
    /// Whether the set must be answered.
    public let required: Bool
    /// The options, each a list of document ids, in the verifier's order of preference.
    public let options: [[String]]
    /// The options the stored credentials can satisfy.
    public let satisfiableOptions: [Int]
    /// The option the consent answers, nil when it answers none.
    public let answeredOption: Int?
    /// The verifier's purpose text, if any.
    public let purpose: String?
  }

  /// The origin the platform reported.
  public let origin: WebOrigin
  /// The protocol being answered.
  public let protocolIdentifier: String
  /// Who asks, verified or not.
  public let requester: Requester
  /// The documents or Credential Queries, in request order.
  public let documents: [Document]
  /// The credential sets with their options; empty when the request has none.
  public let credentialSets: [CredentialSet]
  /// The types of the transaction data the response will be bound to (OpenID4VP §8.4).
  public let transactionDataTypes: [String]
}

extension ConsentScreen {
  /// The screen as lines of text, in time linear in its size.
  var text: String {
    var lines = ["\(origin.serialized) asks for credentials (\(protocolIdentifier))"]
    switch requester {
    case .verified(let name, _): lines.append("- requester: \(name) (verified)")
    case .unverified(let origin):
      lines.append("- requester: \(origin.serialized) (unverified: no trusted identity)")
    }
    for (index, set) in credentialSets.enumerated() {
      let options = set.options.enumerated().map { number, ids in
        let mark = set.answeredOption == number ? " <- answered" : ""
        return "option \(number + 1) [\(ids.joined(separator: ", "))]\(mark)"
      }
      lines.append(
        "- credential set \(index + 1) (\(set.required ? "required" : "optional")): "
          + options.joined(separator: " or ")
          + (set.answeredOption == nil ? " (not answered)" : ""))
    }
    for document in documents {
      let isMdoc = document.format == DCQLFormat.msoMdoc
      let types =
        isMdoc
        ? document.types.map { "\(MdocDisplay.title(for: $0)) [\($0)]" } : document.types
      var header = "- \(document.id): \(document.format) \(types.joined(separator: ", "))"
      switch document.authentication {
      case .trusted(let name)?: header += ", reader \(name) (trusted)"
      case .untrusted?:
        // The chain's reason names the certificate's subject: an unestablished name stays off
        // the screen (the model keeps the reason for diagnostics).
        header += ", reader certificate NOT trusted (its name is not shown)"
      case .unsigned?: header += ", no reader authentication"
      case nil: break
      }
      lines.append(header)
      if document.presentations.isEmpty { lines.append("  not shared") }
      for presentation in document.presentations {
        lines.append("  from credential \(presentation.credentialID)")
        if presentation.claims.isEmpty {
          lines.append("    only what is always presented (no claims requested)")
        }
        for claim in presentation.claims {
          let name = ClaimName.of(
            claim.path, format: isMdoc ? DCQLFormat.msoMdoc : DCQLFormat.sdJWTVC)
          let retain =
            claim.intentToRetain.map { $0 ? " (will be retained)" : " (not retained)" } ?? ""
          let shown: String
          switch (claim.shared, claim.value) {
          case (false, _): shown = "not shared"
          case (true, nil): shown = "-"
          case (true, .cbor(let value)?): shown = ValueText.describe(value)
          case (true, .json(let value)?): shown = ValueText.describe(value)
          }
          lines.append("  \(name)\(retain): \(shown)")
        }
      }
    }
    if !transactionDataTypes.isEmpty {
      lines.append("- transaction data: " + transactionDataTypes.joined(separator: ", "))
    }
    return lines.joined(separator: "\n")
  }
}

/// What the holder agreed to share.
public enum PresentationConsent: Sendable, Hashable {
  /// For `org-iso-mdoc`.
  case mdoc(MdocConsent)
  /// For OpenID4VP.
  case openID4VP(OpenID4VPConsent)
}

/// Short readable forms of claim values for screens and logs.
public enum ValueText {
  /// A one-line description of a CBOR value; long byte strings are summarised.
  public static func describe(_ value: CBOR) -> String {
    switch value.unwrapped {
    case .textString(let text): return text
    case .byteString(let bytes):
      return bytes.count > 32 ? "<\(bytes.count) bytes>" : value.diagnosticNotation
    case .boolean(let b): return b ? "yes" : "no"
    default:
      if let date = value.fullDate { return date.description }
      let text = value.diagnosticNotation
      return text.count > 120 ? String(text.prefix(117)) + "..." : text
    }
  }

  /// A one-line description of a JSON claim value.
  public static func describe(_ value: ClaimValue) -> String {
    switch value {
    case .string(let text): return text
    case .bool(let b): return b ? "yes" : "no"
    default:
      let text = value.description
      return text.count > 120 ? String(text.prefix(117)) + "..." : text
    }
  }
}

extension PresentationRequest {
  /// The protocol's own answer for a declined request, where the protocol defines one: OpenID4VP
  /// 1.0 §8.5 `access_denied` (the verifier learns that the holder said no, and nothing else).
  /// `org-iso-mdoc` defines no such answer: the page simply gets no credential.
  public func declinedResponse(reason: String? = nil) -> ProtocolResponse? {
    switch kind {
    case .openID4VP(let presentation):
      ProtocolResponse(
        protocolIdentifier: protocolIdentifier,
        data: presentation.request.errorResponse(.accessDenied(reason)))
    case .mdoc:
      nil
    }
  }
}
