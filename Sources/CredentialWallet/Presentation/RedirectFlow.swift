import CryptoPrimitives
import Foundation
import JSON
import OpenID4VP

/// The checked redirect request of the OpenID4VP module (placeholder until its API lands).
struct RedirectRequestValue: Sendable {
  var responseModeName: String
}

extension Wallet {
  /// Parses the authorization request URI, fetches its request object and verifies it.
  func fetchAndVerify(
    _ uri: String, transport: RedirectTransport, configuration: RedirectFlowConfiguration
  ) async throws -> RedirectAuthorization {
    throw Refusal(
      protocolIdentifier: PresentationRequest.redirectProtocolIdentifier, code: .invalidRequest,
      reason: "not implemented")
  }

  /// The form body answering `authorization` with `presentations`.
  static func responseForm(
    _ authorization: RedirectAuthorization, presentations: [String: [CredentialPresentation]],
    now: Date, random: any RandomSource
  ) throws(WalletError) -> [(String, String)] {
    throw WalletError(.refused, "not implemented")
  }

  /// The form body of an error response (OpenID4VP 1.0 §8.5) with the request's `state`.
  static func errorForm(_ authorization: RedirectAuthorization, _ error: OpenID4VPErrorResponse)
    -> [(String, String)]
  {
    var form = [("error", error.error.rawValue)]
    if let description = error.errorDescription { form.append(("error_description", description)) }
    if let state = authorization.state { form.append(("state", state)) }
    return form
  }
}
