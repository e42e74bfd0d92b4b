package import DCAPI
import DCCBOR
package import DCCrypto
import DCEncoding
import DCJOSE
package import DCJSON
package import DCMdoc
package import DCQL
import DCSDJWT
package import Foundation

/// The wallet's answer to an Authorization Request over the DC API (OpenID4VP 1.0 §8.1,
/// Appendix A.2).
package struct AuthorizationResponse: Sendable, Hashable {
  /// `vp_token`: Credential Query id to an array of presentations (OpenID4VP 1.0 §8.1).
  package let vpToken: JSONValue
  /// The response `data` for the DC API: `{"vp_token": ...}` for `dc_api`, `{"response": <JWE>}`
  /// for `dc_api.jwt` (OpenID4VP 1.0 Appendix A.2, §8.3).
  package let data: JSONValue
  /// How ``data`` was built.
  package let responseMode: ResponseMode
}

extension AuthorizationRequest {
  /// The audience of SD-JWT Key Binding JWTs over the DC API, `origin:<origin>`, for signed
  /// requests too (OpenID4VP 1.0 Appendix A.4).
  package static func keyBindingAudience(origin: String) -> String { "origin:" + origin }

  /// Builds the response: one presentation per chosen credential, keyed by Credential Query id,
  /// bound to this origin and nonce, then encrypted for `dc_api.jwt` (OpenID4VP 1.0 §8.1, §8.3,
  /// Appendix A.2, A.4, B.2.6.2, B.3.6).
  ///
  /// SD-JWT Key Binding JWTs carry `aud` `origin:<origin>`, the request nonce, `iat` = `now` and
  /// the hashes of the transaction data entries that name the Credential Query (§8.4). mdocs are
  /// device-signed over `[null, null, OpenID4VPDCAPIHandover]` with the encryption key's
  /// thumbprint for `dc_api.jwt` and null for `dc_api`.
  ///
  /// - Parameters:
  ///   - origin: the platform origin; must be the one the request was parsed for.
  ///   - presentations: per Credential Query id, what to present; every id must be in the query.
  ///   - now: `iat` of Key Binding JWTs.
  ///   - random: the JWE's ephemeral key and IV.
  /// - Throws: `invalidRequest` for a mismatched origin, an unknown id, a format the query did
  ///   not ask for, or several presentations where `multiple` is false; `presentationFailed`.
  package func respond(
    origin: WebOrigin, presentations: [String: [CredentialPresentation]], now: Date,
    random: any RandomSource = SecureRandom()
  ) throws(OpenID4VPError) -> AuthorizationResponse {
    guard origin == self.origin else {
      throw OpenID4VPError(
        .invalidRequest, "the request was received for \(self.origin), not \(origin)")
    }
    let originText = origin.serialized
    let vpToken = try Self.vpToken(
      dcqlQuery: dcqlQuery, transactionData: transactionData, presentations: presentations,
      keyBindingAudience: Self.keyBindingAudience(origin: originText), nonce: nonce, now: now
    ) { [nonce, responseEncryption] in
      // §B.2.6.2: the encryption key's thumbprint, null for dc_api; computed only when an mdoc
      // is presented.
      SessionTranscript(
        handover: Handover.openID4VPDCAPI(
          origin: originText, nonce: nonce, jwkThumbprint: responseEncryption?.jwkThumbprint))
    }
    let plain = JSONValue.object([("vp_token", vpToken)])
    guard let encryption = responseEncryption else {
      return AuthorizationResponse(vpToken: vpToken, data: plain, responseMode: responseMode)
    }
    // §8.3: the whole response, as a JSON object, is the JWE plaintext.
    let jwe: String
    do {
      jwe = try JWE.encrypt(
        plaintext: plain.serializedBytes(), recipient: encryption.publicKey,
        enc: encryption.enc, kid: encryption.key.kid, random: random)
    } catch {
      throw OpenID4VPError(
        .presentationFailed, "response encryption: \(error.reason)", underlying: error)
    }
    return AuthorizationResponse(
      vpToken: vpToken, data: .object([("response", .string(jwe))]), responseMode: responseMode)
  }

  /// An error response for the verifier, such as ``OpenID4VPErrorResponse/accessDenied(_:)``
  /// when the user declines (OpenID4VP 1.0 §8.5, Appendix A.2: errors are returned in the clear).
  package func errorResponse(_ error: OpenID4VPErrorResponse) -> JSONValue { error.data }

  /// Builds a `vp_token`: per Credential Query id (in the query's order), the presentations
  /// bound to one audience, nonce and mdoc SessionTranscript (OpenID4VP 1.0 §8.1, §8.4, §8.6,
  /// Appendix B.2.6, B.3.6). Shared by the DC API and the redirect-based flows, which differ
  /// only in the binding.
  ///
  /// - Parameters:
  ///   - keyBindingAudience: `aud` of SD-JWT Key Binding JWTs.
  ///   - sessionTranscript: the mdoc transcript, asked for at most once and only when an mdoc
  ///     is presented.
  package static func vpToken(
    dcqlQuery: DCQLQuery, transactionData: [TransactionData],
    presentations: [String: [CredentialPresentation]], keyBindingAudience: String,
    nonce: String, now: Date, sessionTranscript: () -> SessionTranscript
  ) throws(OpenID4VPError) -> JSONValue {
    let queries = Dictionary(
      dcqlQuery.credentials.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    for id in presentations.keys where queries[id] == nil {
      throw OpenID4VPError(.invalidRequest, "\(id) is not a Credential Query id of the request")
    }
    var transcript: SessionTranscript? = nil
    var token: [(key: String, value: JSONValue)] = []
    // Query order keeps the output deterministic.
    for query in dcqlQuery.credentials {
      guard let chosen = presentations[query.id] else { continue }
      guard !chosen.isEmpty else {
        throw OpenID4VPError(.invalidRequest, "no presentation given for \(query.id)")
      }
      // §6.1: without `multiple`, exactly one presentation answers a Credential Query.
      guard query.multiple || chosen.count == 1 else {
        throw OpenID4VPError(
          .invalidRequest, "\(query.id) does not allow multiple presentations")
      }
      var items: [JSONValue] = []
      for presentation in chosen {
        guard presentation.format == query.format else {
          throw OpenID4VPError(
            .invalidRequest, "\(query.id) asks for \(query.format), not \(presentation.format)")
        }
        items.append(
          try item(
            presentation, answering: query, transactionData: transactionData,
            keyBindingAudience: keyBindingAudience, nonce: nonce, now: now,
            transcript: &transcript, sessionTranscript: sessionTranscript))
      }
      token.append((query.id, .array(items)))
    }
    return .object(token)
  }

  /// One presentation of a `vp_token` entry: an SD-JWT with its Key Binding JWT, or an mdoc
  /// DeviceResponse bound to the SessionTranscript (made once, kept in `transcript`).
  private static func item(
    _ presentation: CredentialPresentation, answering query: CredentialQuery,
    transactionData: [TransactionData], keyBindingAudience: String, nonce: String, now: Date,
    transcript: inout SessionTranscript?, sessionTranscript: () -> SessionTranscript
  ) throws(OpenID4VPError) -> JSONValue {
    switch presentation.kind {
    case .sdJWT(let credential, let paths, let holderKey, let processed, let cnfKey):
      let hashes = transactionData.filter { $0.credentialIDs.contains(query.id) }.map(\.hash)
      let binding = KeyBinding(
        signer: holderKey, audience: keyBindingAudience, nonce: nonce,
        issuedAt: now, transactionDataHashes: hashes.isEmpty ? nil : hashes,
        // §8.4: omitted when the default sha-256 is used.
        transactionDataHashesAlg: nil)
      do {
        guard let processed else {
          return .string(try credential.present(disclosing: paths, keyBinding: binding))
        }
        return .string(
          try credential.present(
            disclosing: paths, keyBinding: binding, processed: processed, holderKey: cnfKey))
      } catch {
        throw OpenID4VPError(
          .presentationFailed, "SD-JWT \(query.id): \(error.reason)", underlying: error)
      }
    case .mdoc(let issuerSigned, let elements, let deviceKey):
      let sessionTranscript = transcript ?? sessionTranscript()
      transcript = sessionTranscript
      do {
        let document = try Document.present(
          issuerSigned, disclosing: elements, sessionTranscript: sessionTranscript,
          deviceKey: deviceKey)
        let response = DeviceResponse(documents: [document])
        return .string(Base64URL.encode(response.bytes))
      } catch {
        throw OpenID4VPError(
          .presentationFailed, "mdoc \(query.id): \(error.reason)", underlying: error)
      }
    }
  }
}
