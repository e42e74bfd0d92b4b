public import DCX509

/// One check a verifier ran and passed, as a value, for both protocols. A check that fails
/// throws instead, so a report lists only what held; the command line renders each check in
/// words.
public enum VerificationCheck: Sendable, Hashable {
  /// How an mdoc's issuer was trusted (ISO 18013-5 Annex B, or a pinned document signer).
  public enum IssuerTrust: Sendable, Hashable {
    /// The document signer chains to a configured IACA.
    case chainToIACA
    /// The document signer certificate itself is a configured anchor (direct trust).
    case pinnedDocumentSigner
  }

  // ISO/IEC TS 18013-7 Annex C.

  /// The HPKE-sealed response opened under the SessionTranscript of `origin` (Annex C.5).
  case responseOpened(transcriptOrigin: String)
  /// The DeviceResponse has status 0 and holds `documentCount` documents (ISO 18013-5 §8.3.2.1.2.2).
  case deviceResponseStructure(version: String, documentCount: Int)
  /// The MSO of `docType` is signed by `documentSigner`, trusted as `trust`; digests and
  /// validity verified (ISO 18013-5 §9.3.1).
  case documentIssuer(docType: String, documentSigner: DistinguishedName, trust: IssuerTrust)
  /// The device signature of `docType` over this session's transcript verified (§9.1.3).
  case documentDeviceSignature(docType: String)
  /// The deviceMac of `docType` over this session's transcript verified with the EMacKey the
  /// reader derived from its ephemeral key and the MSO's device key (ISO 18013-5 §9.1.3.5).
  case documentDeviceMac(docType: String)
  /// The device signature of `docType` carried its payload attached, byte-identical to the
  /// DeviceAuthenticationBytes the verifier computed, and was accepted: ISO 18013-5 §9.1.3.4
  /// asks for a detached payload (Annex C, in person and OpenID4VP alike).
  case deviceSignaturePayloadAttached(docType: String)
  /// `docType` returned `elementCount` elements, every one of them requested.
  case onlyRequestedElements(docType: String, elementCount: Int)

  // OpenID4VP 1.0.

  /// The `dc_api.jwt` response JWE decrypted with the request's encryption key (§8.3).
  case responseDecrypted
  /// The required `credential_sets` are satisfied (DCQL, §6.2).
  case credentialSetsSatisfied
  /// Every Credential Query is answered (no `credential_sets`, §6).
  case everyCredentialQueryAnswered
  /// Each presentation meets its Credential Query.
  case presentationsMeetQueries
  /// The SD-JWT VC issuer signature verified with a trusted `x5c` chain.
  case sdJWTIssuerSignature
  /// The disclosures match the issuer's digests (RFC 9901 §7.1).
  case sdJWTDisclosureDigests
  /// The KB-JWT is signed by the `cnf` key, with audience `origin:<origin>`, the nonce, `sd_hash`
  /// and `iat` (OpenID4VP 1.0 Appendix A.4, RFC 9901 §7.3).
  case keyBinding(origin: String)
  /// `transaction_data_hashes` bind the request's transaction data (§8.4).
  case transactionDataBound
  /// The mdoc's issuerAuth is by a document signer trusted as `trust`.
  case mdocIssuerAuth(trust: IssuerTrust)
  /// The mdoc's value digests, docType and validity verified.
  case mdocValueDigests
  /// The mdoc's device signature over the OpenID4VPDCAPIHandover transcript for `origin` and
  /// the nonce verified (OpenID4VP 1.0 Appendix B.2.6.2).
  case mdocHandoverDeviceSignature(origin: String)
  /// The KB-JWT is signed by the `cnf` key, with audience the Client Identifier `clientID`, the
  /// nonce, `sd_hash` and `iat`: a redirect-based flow (OpenID4VP 1.0 Appendix B.3.6).
  case keyBindingToClient(clientID: String)
  /// The mdoc's device signature over the OpenID4VPHandover transcript for `clientID`, the
  /// nonce, the encryption key's thumbprint and `responseURI` verified (OpenID4VP 1.0 Appendix
  /// B.2.6.1).
  case mdocRedirectHandoverDeviceSignature(clientID: String, responseURI: String)

  // ISO 18013-5 2nd edition zero-knowledge documents (Longfellow), every transport.

  /// The DeviceResponse has status 0 and holds `zkDocumentCount` ZK documents.
  case zkDeviceResponseStructure(version: String, zkDocumentCount: Int)
  /// The ZK document's `msoX5chain` leaf `documentSigner` chains to the issuer anchor `anchor`
  /// (nil: the document signer itself is pinned), checked outside the proof at verification
  /// time; its P-256 key is the proof's issuer key.
  case zkIssuer(docType: String, documentSigner: DistinguishedName, anchor: DistinguishedName?)
  /// The proof's public inputs were built: `docType`, the disclosed `elements` (`NS/EL`), each
  /// requested, the SessionTranscript of this exchange and `timestamp`, near the verification
  /// time, under the requested and configured circuit `zkSystemId`.
  case zkStatement(docType: String, zkSystemId: String, elements: [String], timestamp: String)
  /// The Longfellow proof under `zkSystemId` verified: the issuer signed an MSO for `docType`,
  /// valid at the timestamp, binding the disclosed elements and a device key that signed this
  /// session's DeviceAuthentication; nothing else is disclosed.
  case zkProof(docType: String, zkSystemId: String)

  // Credential status (IETF Token Status List), every verifier.

  /// The status of `credential` (an mdoc's docType, or a Credential Query id with its vct or
  /// docType): valid in its list, unknown with the reason, not referenced, or skipped
  /// (draft-ietf-oauth-status-list §8.3). An invalid (revoked) or suspended credential, or an
  /// unknown status under a strict policy, throws instead.
  case credentialStatus(credential: String, outcome: ReportedCredentialStatus)

  // Certificate revocation (RFC 5280 §6.3), when the verifier's revocation setting checks it.

  /// The issuer's chain was checked against CRLs: no certificate is revoked; `unknown` names the
  /// certificates (by subject) whose status is unknown — a distribution point with no current
  /// CRL signed by their issuer, accepted because the policy fails open. Empty: every status
  /// is known to be good.
  case issuerRevocation(unknown: [String])
}

extension VerificationCheck {
  /// The revocation check a trusted issuer chain reports; nil when revocation was not checked.
  static func revocation(of chain: TrustedChain?) -> VerificationCheck? {
    switch chain?.revocation {
    case .good: .issuerRevocation(unknown: [])
    case .unknown(let certificates):
      .issuerRevocation(unknown: certificates.map(\.subject.description))
    case .notChecked, nil: nil
    }
  }
}

/// What a verifier checked, in the order the checks ran.
public struct VerificationReport: Sendable, Hashable {
  /// The checks that passed.
  public let checks: [VerificationCheck]

  /// A report of `checks`.
  package init(checks: [VerificationCheck]) { self.checks = checks }
}
