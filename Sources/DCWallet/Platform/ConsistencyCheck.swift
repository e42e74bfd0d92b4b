import DCAPI
import DCJOSE
package import DCJSON
import DCMdoc
import DCOpenID4VP
import DCOrgIsoMdoc
import DCQL
package import Foundation

/// Before signing on iOS: the raw request the OS releases after consent must not ask for more
/// than the parsed request the consent screen showed. Anything that cannot be decoded fails
/// closed.
package enum ConsistencyCheck {
  /// Checks a raw `org-iso-mdoc` request (`{"deviceRequest", "encryptionInfo"}` JSON) against
  /// the request the consent screen showed: every docType, namespace and element must have been
  /// shown, and nothing shown as not retained may be retained.
  package static func check(rawMobileDocumentRequest data: Data, shown: MobileDocumentRequest)
    throws(PresentationError)
  {
    let raw: AnnexCRequest
    do {
      raw = try AnnexCRequest(data: try JSONValue(parsing: Array(data)))
    } catch let error as OrgIsoMdocError {
      throw PresentationError(
        .consentViolation, "the raw request cannot be decoded: \(error.reason)")
    } catch {
      throw PresentationError(.consentViolation, "the raw request is not JSON: \(error)")
    }
    let visible = shown.shownElements
    for docRequest in raw.deviceRequest.docRequests {
      for (ns, element) in docRequest.itemsRequest.requestedElements {
        let key = MobileDocumentRequest.ShownElement(
          documentType: docRequest.itemsRequest.docType, namespace: ns, element: element.identifier)
        guard let shownRetaining = visible[key] else {
          throw PresentationError(
            .consentViolation,
            "the raw request asks for \(key), which the consent screen did not show")
        }
        if element.intentToRetain && !shownRetaining {
          throw PresentationError(
            .consentViolation, "the raw request retains \(key), shown as not retained")
        }
      }
    }
  }

  /// Checks a raw OpenID4VP request (iOS 27.3 `OpenID4VPRawRequestContext.requestData`) against
  /// the DCQL query the consent screen showed: every credential query must have been shown with
  /// the same format and type constraints, and ask for no claim that was not shown.
  package static func check(
    rawOpenID4VPRequest data: Data, protocolIdentifier: String, shownQuery: JSONValue
  ) throws(PresentationError) {
    let rawQuery = try dcqlQuery(data, protocolIdentifier: protocolIdentifier)
    let shown: DCQLQuery
    let asked: DCQLQuery
    do {
      shown = try DCQLQuery(shownQuery)
      asked = try DCQLQuery(rawQuery)
    } catch {
      throw PresentationError(.consentViolation, "a DCQL query cannot be read: \(error)")
    }
    for query in asked.credentials {
      guard let seen = shown.credentials.first(where: { $0.id == query.id }) else {
        throw PresentationError(
          .consentViolation, "credential query \(query.id) was not shown")
      }
      guard seen.format == query.format, seen.meta == query.meta else {
        throw PresentationError(
          .consentViolation,
          "credential query \(query.id) differs in format or type from what was shown")
      }
      guard let seenClaims = seen.claims else { continue }  // the whole credential was shown
      guard let claims = query.claims else {
        throw PresentationError(
          .consentViolation,
          "credential query \(query.id) asks for every claim; the screen showed some")
      }
      let seenPaths = Set(seenClaims.map(\.path))
      for claim in claims where !seenPaths.contains(claim.path) {
        throw PresentationError(
          .consentViolation,
          "credential query \(query.id) asks for \(claim.path), which was not shown")
      }
    }
  }

  /// The `dcql_query` of a raw OpenID4VP DC API request, read by the OpenID4VP module
  /// (``OpenID4VPProtocol/unverifiedRequestParameters(of:)``, OpenID4VP 1.0 Appendix A.3). The
  /// signature is checked by the presentation flow; this check is only about what is asked.
  static func dcqlQuery(_ data: Data, protocolIdentifier: String) throws(PresentationError)
    -> JSONValue
  {
    guard let protocolID = OpenID4VPProtocol(rawValue: protocolIdentifier), protocolID != .draft
    else {
      throw PresentationError(
        .consentViolation, "\(protocolIdentifier) is not an OpenID4VP 1.0 protocol")
    }
    let parameters: JSONValue
    do {
      parameters = try protocolID.unverifiedRequestParameters(
        of: try JSONValue(parsing: Array(data)))
    } catch {
      throw PresentationError(
        .consentViolation, "the raw request cannot be decoded: \(error)")
    }
    guard let query = parameters["dcql_query"], case .object = query else {
      throw PresentationError(.consentViolation, "the raw request has no dcql_query")
    }
    return query
  }
}
