package import DCAPI
import DCJOSE
import DCJSON
import Foundation

/// What Android Credential Manager hands a wallet's request activity, as a plain value: the
/// caller, the protocol requests in the website's order (protocols this SDK does not answer are
/// dropped), and the entry the user picked in the system picker, mapped back to requests.
package struct AndroidCredentialRequest: Sendable {
  /// The user's pick in the system picker.
  package struct Selection: Sendable, Hashable {
    /// The credentials (document ids) the picked entry stands for.
    package let credentialIDs: [String]
    /// The request the pick answers, when it is known exactly.
    package let requestIndex: Int?
    /// The requests it may answer when the matcher reported only a protocol shared by several
    /// requests; `resolveRequestIndex` picks among them.
    package let candidateRequestIndexes: [Int]
  }

  /// The web origin; nil when a native app asked for itself.
  package let origin: WebOrigin?
  /// The calling app's package name.
  package let callingPackage: String?
  /// The requests this SDK answers, in order, after dropping unknown protocols.
  package let requests: [ProtocolRequest]
  /// The user's pick.
  package let selection: Selection

  /// Reads the request JSON (`{"requests": [...]}` or a single protocol request) and the picked
  /// entry: multipaz `"<combination> <protocol> <documentId>"`, or CMWallet/Ubique
  /// `{"provider_idx": n, "id": ...}` where n indexes the original request list.
  package init(
    requestJSON: [UInt8], origin: String?, callingPackage: String?, selectedEntry: String
  )
    throws(DigitalCredentialsError)
  {
    let envelope = try RequestEnvelope(json: requestJSON)
    // Original index -> index after dropping protocols this SDK does not answer.
    var kept: [ProtocolRequest] = []
    var mapping: [Int: Int] = [:]
    for (index, request) in envelope.requests.enumerated() where request.knownProtocol != nil {
      mapping[index] = kept.count
      kept.append(request)
    }
    requests = kept
    self.origin = try origin.map { (text) throws(DigitalCredentialsError) in try WebOrigin(text) }
    self.callingPackage = callingPackage
    selection = try Self.selection(selectedEntry, requests: kept, originalToKept: mapping)
  }

  static func selection(_ entry: String, requests: [ProtocolRequest], originalToKept: [Int: Int])
    throws(DigitalCredentialsError)
    -> Selection
  {
    let trimmed = entry.trimmingCharacters(in: .whitespaces)
    if trimmed.hasPrefix("{") {
      // CMWallet / Ubique: {"provider_idx": n, "id": ...}
      guard let value = try? JSONValue(parsing: trimmed),
        let providerIndex = value["provider_idx"]?.int
      else {
        throw DigitalCredentialsError(
          .invalidRequest, "the picked entry is not {\"provider_idx\": n, \"id\": ...}")
      }
      let id: String
      switch value["id"] {
      case .string(let text)?: id = text
      case .integer(let number)?: id = String(number)
      default: throw DigitalCredentialsError(.invalidRequest, "the picked entry has no id")
      }
      guard let index = originalToKept[providerIndex] else {
        throw DigitalCredentialsError(
          .unsupportedProtocol,
          "the picked entry answers request \(providerIndex), whose protocol is not supported")
      }
      return Selection(credentialIDs: [id], requestIndex: index, candidateRequestIndexes: [index])
    }
    // multipaz: "<combination> <protocol> <documentId>"; the document id may itself hold spaces.
    let parts = trimmed.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(
      String.init)
    guard parts.count == 3, Int(parts[0]) != nil else {
      throw DigitalCredentialsError(
        .invalidRequest,
        "the picked entry \"\(entry)\" is not \"<combination> <protocol> <documentId>\"")
    }
    let candidates = requests.indices.filter { requests[$0].protocolIdentifier == parts[1] }
    guard !candidates.isEmpty else {
      throw DigitalCredentialsError(
        .unsupportedProtocol, "the picked entry names \(parts[1]), which no request uses")
    }
    return Selection(
      credentialIDs: [parts[2]], requestIndex: candidates.count == 1 ? candidates[0] : nil,
      candidateRequestIndexes: candidates)
  }

  /// The request the picked credentials answer: the known index, else the first candidate the
  /// `satisfies` test accepts (the wallet resolves each candidate against its credentials).
  package func resolveRequestIndex(satisfies: (ProtocolRequest) -> Bool) -> Int? {
    if let index = selection.requestIndex { return index }
    return selection.candidateRequestIndexes.first { satisfies(requests[$0]) }
  }
}
