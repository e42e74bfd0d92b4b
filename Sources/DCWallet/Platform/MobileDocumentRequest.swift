public import DCAPI
import DCCOSE
public import DCMdoc
import Foundation

/// The OS-parsed mdoc request iOS hands a provider extension (`ISO18013MobileDocumentRequest`),
/// as a plain Swift value the request UI and the Linux tests share. The Apple bridge translates
/// to and from Apple's type; every rule lives here.
public struct MobileDocumentRequest: Sendable, Hashable {
  /// An element the reader asks for and whether it will retain it (`ElementInfo`).
  public struct ElementInfo: Sendable, Hashable {
    /// Whether the reader will retain the element after the transaction (ISO 18013-5
    /// `IntentToRetain`).
    public let isRetaining: Bool
    /// Creates element information.
    package init(isRetaining: Bool) { self.isRetaining = isRetaining }
  }

  /// One requested document (`DocumentRequest`).
  public struct DocumentRequest: Sendable, Hashable {
    /// The requested docType, e.g. `org.iso.18013.5.1.mDL`.
    public let documentType: String
    /// Elements by namespace.
    package let namespaces: [String: [String: ElementInfo]]
    /// Document signer key identifiers the reader accepts (iOS 27.0); empty accepts any.
    package let issuerKeyIdentifiers: [[UInt8]]

    /// Creates a document request.
    package init(
      documentType: String, namespaces: [String: [String: ElementInfo]],
      issuerKeyIdentifiers: [[UInt8]] = []
    ) {
      self.documentType = documentType
      self.namespaces = namespaces
      self.issuerKeyIdentifiers = issuerKeyIdentifiers
    }
  }

  /// Documents that are answered together (`DocumentRequestSet`): every one of them.
  public struct DocumentRequestSet: Sendable, Hashable {
    /// The document requests of the set, all answered together.
    public let requests: [DocumentRequest]
    /// Creates a set.
    package init(requests: [DocumentRequest]) { self.requests = requests }
  }

  /// Alternatives of which exactly one set answers the request (`PresentmentRequest`).
  public struct PresentmentRequest: Sendable, Hashable {
    package let documentRequestSets: [DocumentRequestSet]
    /// Whether it must be answered.
    package let isMandatory: Bool
    /// Creates a presentment request.
    package init(documentRequestSets: [DocumentRequestSet], isMandatory: Bool) {
      self.documentRequestSets = documentRequestSets
      self.isMandatory = isMandatory
    }
  }

  package let presentmentRequests: [PresentmentRequest]
  /// Reader certificate chains (DER, leaf first), one per request authentication.
  package let requestAuthentications: [[[UInt8]]]

  /// Creates a request.
  package init(presentmentRequests: [PresentmentRequest], requestAuthentications: [[[UInt8]]] = [])
  {
    self.presentmentRequests = presentmentRequests
    self.requestAuthentications = requestAuthentications
  }

  /// The request an ISO 18013-5 DeviceRequest expresses: its use cases become presentment
  /// requests (document sets index doc requests); without use cases every doc request is its own
  /// mandatory presentment request.
  public init(deviceRequest: DeviceRequest) throws(PresentationError) {
    let documents = deviceRequest.docRequests.map { docRequest in
      var namespaces: [String: [String: ElementInfo]] = [:]
      for (ns, element) in docRequest.itemsRequest.requestedElements {
        namespaces[ns, default: [:]][element.identifier] = ElementInfo(
          isRetaining: element.intentToRetain)
      }
      return DocumentRequest(documentType: docRequest.itemsRequest.docType, namespaces: namespaces)
    }
    let useCases: [UseCase]
    do {
      useCases = try deviceRequest.useCases
    } catch {
      throw PresentationError(.invalidRequest, error.reason)
    }
    if useCases.isEmpty {
      presentmentRequests = documents.map {
        PresentmentRequest(
          documentRequestSets: [DocumentRequestSet(requests: [$0])], isMandatory: true)
      }
    } else {
      presentmentRequests = try useCases.map { useCase throws(PresentationError) in
        PresentmentRequest(
          documentRequestSets: try useCase.documentSets.map { set throws(PresentationError) in
            DocumentRequestSet(
              requests: try set.map { index throws(PresentationError) in
                guard documents.indices.contains(index) else {
                  throw PresentationError(
                    .invalidRequest, "a use case names doc request \(index), which does not exist")
                }
                return documents[index]
              })
          }, isMandatory: useCase.mandatory)
      }
    }
    requestAuthentications = deviceRequest.docRequests.compactMap {
      try? $0.readerAuth?.headers.x5chain
    }
  }

  /// Every (documentType, namespace, element) the request shows, with its retention.
  public var shownElements: [ShownElement: Bool] {
    var shown: [ShownElement: Bool] = [:]
    for presentment in presentmentRequests {
      for set in presentment.documentRequestSets {
        for document in set.requests {
          for (ns, elements) in document.namespaces {
            for (element, info) in elements {
              let key = ShownElement(
                documentType: document.documentType, namespace: ns, element: element)
              shown[key] = (shown[key] ?? false) || info.isRetaining
            }
          }
        }
      }
    }
    return shown
  }

  /// One element as shown on a consent screen.
  public struct ShownElement: Sendable, Hashable, CustomStringConvertible {
    /// The docType of the document the element belongs to.
    public let documentType: String
    package let namespace: String
    /// The element identifier within its namespace, e.g. `portrait`.
    public let element: String
    public var description: String { "\(documentType) \(namespace)/\(element)" }
  }
}

/// A stored document the request UI can offer: its identifier, docType, the elements it holds
/// and the authority key identifier of its document signer's issuer.
public struct OfferableDocument: Sendable, Hashable {
  /// The stored credential's id.
  public let id: String
  /// The document's docType.
  public let documentType: String
  /// Elements held, by namespace.
  public let elements: [String: Set<String>]
  /// AKIs of the issuer chain.
  package let issuerKeyIdentifiers: [[UInt8]]

  /// Creates an offerable document.
  public init(
    id: String, documentType: String, elements: [String: Set<String>],
    issuerKeyIdentifiers: [[UInt8]] = []
  ) {
    self.id = id
    self.documentType = documentType
    self.elements = elements
    self.issuerKeyIdentifiers = issuerKeyIdentifiers
  }

  /// Whether this document can answer a document request: same type, and an accepted issuer
  /// when the request restricts issuers (the elements it lacks are simply not returned).
  package func answers(_ request: MobileDocumentRequest.DocumentRequest) -> Bool {
    documentType == request.documentType
      && (request.issuerKeyIdentifiers.isEmpty
        || issuerKeyIdentifiers.contains { request.issuerKeyIdentifiers.contains($0) })
  }
}

/// The holder's choice for one presentment request: which set, and a document for each request
/// of the set, in order.
public struct PresentmentChoice: Sendable, Hashable {
  package let presentmentIndex: Int
  /// The index of the chosen set among the presentment request's alternative sets.
  public let setIndex: Int
  package let documentIDs: [String]

  /// Creates a choice.
  public init(presentmentIndex: Int, setIndex: Int, documentIDs: [String]) {
    self.presentmentIndex = presentmentIndex
    self.setIndex = setIndex
    self.documentIDs = documentIDs
  }
}

extension MobileDocumentRequest {
  /// For each presentment request, the sets the stored documents can answer completely, with the
  /// candidates for each document request of the set.
  public func answerableSets(_ documents: [OfferableDocument]) -> [[(
    setIndex: Int, candidates: [[String]]
  )]] {
    presentmentRequests.map { presentment in
      presentment.documentRequestSets.enumerated().compactMap { index, set in
        let candidates = set.requests.map { request in
          documents.filter { $0.answers(request) }.map(\.id)
        }
        return candidates.allSatisfy { !$0.isEmpty } ? (index, candidates) : nil
      }
    }
  }

  /// Whether the wallet can answer at all: every mandatory presentment request has a set the
  /// stored documents answer completely.
  package func isAnswerable(with documents: [OfferableDocument]) -> Bool {
    zip(presentmentRequests, answerableSets(documents)).allSatisfy { presentment, sets in
      !presentment.isMandatory || !sets.isEmpty
    }
  }

  /// Checks the holder's choices against the rules iOS states: every mandatory presentment
  /// request is answered, exactly one set per answered presentment request, every document of
  /// the chosen set, each by a document that can answer it.
  package func validate(_ choices: [PresentmentChoice], documents: [OfferableDocument])
    throws(PresentationError)
  {
    var answered = Set<Int>()
    for choice in choices {
      guard presentmentRequests.indices.contains(choice.presentmentIndex) else {
        throw PresentationError(
          .consentViolation, "presentment request \(choice.presentmentIndex) does not exist")
      }
      guard answered.insert(choice.presentmentIndex).inserted else {
        throw PresentationError(
          .consentViolation,
          "presentment request \(choice.presentmentIndex) is answered by more than one set")
      }
      let sets = presentmentRequests[choice.presentmentIndex].documentRequestSets
      guard sets.indices.contains(choice.setIndex) else {
        throw PresentationError(.consentViolation, "set \(choice.setIndex) does not exist")
      }
      let requests = sets[choice.setIndex].requests
      guard choice.documentIDs.count == requests.count else {
        throw PresentationError(
          .consentViolation, "every document of the chosen set must be answered")
      }
      for (request, id) in zip(requests, choice.documentIDs) {
        guard let document = documents.first(where: { $0.id == id }), document.answers(request)
        else {
          throw PresentationError(
            .consentViolation, "\(id) cannot answer a request for \(request.documentType)")
        }
      }
    }
    for (index, presentment) in presentmentRequests.enumerated()
    where presentment.isMandatory && !answered.contains(index) {
      throw PresentationError(
        .consentViolation, "mandatory presentment request \(index) is not answered")
    }
  }
}
