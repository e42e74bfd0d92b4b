public import CBOR
public import CryptoPrimitives
import DCQL
public import DigitalCredentialsAPI
public import Foundation
public import Mdoc
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

  /// Who asks: the reader's certificate name when signed, else the origin.
  public var relyingParty: String {
    switch kind {
    case .mdoc(let presentation):
      presentation.documentRequests.lazy.compactMap { $0.reader?.name }.first ?? origin.serialized
    case .openID4VP(let presentation):
      presentation.request.verifier.clientID?.description ?? origin.serialized
    }
  }

  /// The consent a consent screen proposes before the user changes anything.
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

  /// A consent narrowed by the holder's choices: which credentials to use (empty: the first that
  /// match) and which claims to disclose (empty: everything requested that the credential holds;
  /// mdoc claims are written `NAMESPACE/ELEMENT`). Claims named that were not requested are
  /// refused, so a typo never silently shares nothing or something else.
  public func consent(credentials: [String], disclose: [String]) throws(WalletError)
    -> PresentationConsent
  {
    switch kind {
    case .openID4VP(let presentation):
      return .openID4VP(try presentation.consent(credentials: credentials, disclose: disclose))
    case .mdoc(let presentation):
      var chosen: [MdocConsent.Document] = []
      let wanted = try Self.mdocClaims(disclose)
      guard let indices = presentation.answerableDocRequests else {
        throw WalletError(.refused, "no stored credential can answer the request")
      }
      for index in indices {
        let docRequest = presentation.documentRequests[index]
        let candidate =
          credentials.isEmpty
          ? docRequest.candidates.first
          : docRequest.candidates.first { credentials.contains($0.credentialID) }
        guard let candidate else { continue }
        var elements: [String: Set<String>] = [:]
        for element in candidate.match.available
        where wanted.isEmpty || wanted.contains("\(element.nameSpace)/\(element.identifier)") {
          elements[element.nameSpace, default: []].insert(element.identifier)
        }
        if !elements.isEmpty {
          chosen.append(
            .init(docRequestIndex: index, credentialID: candidate.credentialID, elements: elements))
        }
      }
      let requested = Set(
        presentation.documentRequests.flatMap {
          $0.itemsRequest.requestedElements.map { "\($0.nameSpace)/\($0.element.identifier)" }
        })
      if let unknown = wanted.subtracting(requested).sorted().first {
        throw WalletError(.refused, "\(unknown) was not requested")
      }
      guard !chosen.isEmpty else {
        throw WalletError(.refused, "the chosen credentials and claims leave nothing to share")
      }
      return .mdoc(MdocConsent(documents: chosen))
    }
  }

  static func mdocClaims(_ disclose: [String]) throws(WalletError) -> Set<String> {
    var claims = Set<String>()
    for claim in disclose {
      let parts = claim.split(separator: "/", maxSplits: 1)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
        throw WalletError(
          .invalidInput, "mdoc claims are written NAMESPACE/ELEMENT, not \"\(claim)\"")
      }
      claims.insert(claim)
    }
    return claims
  }

  /// A readable consent screen: who asks, whether they are trusted, and each requested item with
  /// intent to retain and the value that would be shared.
  public func consentScreen(for consent: PresentationConsent) -> String {
    var lines = ["\(origin.serialized) asks for credentials (\(protocolIdentifier))"]
    switch (kind, consent) {
    case (.mdoc(let presentation), .mdoc(let mdocConsent)):
      for docRequest in presentation.documentRequests {
        let reader: String
        switch docRequest.reader?.trust {
        case .trusted?: reader = "reader \(docRequest.reader?.name ?? "") (trusted)"
        case .untrusted(let reason)?:
          reader = "reader \(docRequest.reader?.name ?? "") (NOT trusted: \(reason))"
        case nil: reader = "no reader authentication"
        }
        lines.append(
          "- \(MdocDisplay.title(for: docRequest.itemsRequest.docType)) [\(docRequest.itemsRequest.docType)], \(reader)"
        )
        let chosen = mdocConsent.documents.first { $0.docRequestIndex == docRequest.index }
        let candidate = docRequest.candidates.first { $0.credentialID == chosen?.credentialID }
        if let chosen { lines.append("  from credential \(chosen.credentialID)") }
        for element in docRequest.itemsRequest.requestedElements {
          let retain = element.element.intentToRetain ? "will be retained" : "not retained"
          let shared =
            chosen?.elements[element.nameSpace]?.contains(element.element.identifier) ?? false
          let value = candidate?.match.elements.first {
            $0.nameSpace == element.nameSpace && $0.identifier == element.element.identifier
          }?.value
          let shown = shared ? (value.map { ValueText.describe($0) } ?? "-") : "not shared"
          lines.append("  \(element.nameSpace)/\(element.element.identifier) (\(retain)): \(shown)")
        }
      }
    case (.openID4VP(let presentation), .openID4VP(let consent)):
      switch presentation.request.verifier {
      case .origin(let origin):
        lines.append("- verifier identified by its origin \(origin) (unsigned request)")
      case .authenticated(let verifier):
        lines.append(
          "- verifier \(verifier.clientID) (\(verifier.leafCertificate.subject)), chain trusted")
      }
      for query in presentation.request.dcqlQuery.credentials {
        lines.append(
          "- \(query.id): \(query.format) \(query.meta.vctValues?.joined(separator: ", ") ?? query.meta.doctypeValue ?? "")"
        )
        for item in consent.selections[query.id] ?? [] {
          let format = query.format
          lines.append(
            "  from credential \(item.credentialID): "
              + item.disclosed.map { ClaimName.of($0, format: format) }.joined(separator: ", "))
        }
        if consent.selections[query.id] == nil { lines.append("  not shared") }
      }
      if !presentation.request.transactionData.isEmpty {
        lines.append(
          "- transaction data: "
            + presentation.request.transactionData.map(\.type).joined(separator: ", "))
      }
    default:
      lines.append("(the consent does not fit this request)")
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
