import DCVerifier

/// The words the command line prints for a verifier's typed checks.
enum VerificationCheckText {
  /// The short name and the detail of a check, as `dcwallet verifier` prints Annex C checks.
  static func nameAndDetail(_ check: VerificationCheck) -> (name: String, detail: String) {
    switch check {
    case .responseOpened(let origin):
      ("decryption", "HPKE opened under the transcript of \(origin)")
    case .deviceResponseStructure(let version, let count):
      ("structure", "DeviceResponse \(version), status 0, \(count) document(s)")
    case .documentIssuer(let docType, let signer, let trust):
      (
        "issuer \(docType)",
        "MSO signed by \(signer), \(trustText(trust)), digests and validity verified"
      )
    case .documentDeviceSignature(let docType):
      ("device \(docType)", "device signature over this session verified")
    case .documentDeviceMac(let docType):
      ("device \(docType)", "deviceMac over this session verified (EMacKey from the reader key)")
    case .deviceSignaturePayloadAttached(let docType):
      (
        "device \(docType)",
        "payload attached (ISO 18013-5 asks for it detached), identical to this session's "
          + "DeviceAuthenticationBytes: accepted"
      )
    case .onlyRequestedElements(let docType, let count):
      ("disclosure \(docType)", "\(count) element(s), all requested")
    case .credentialStatus(let credential, let outcome):
      ("status \(credential)", VerifierStatusText.detail(outcome))
    case .zkDeviceResponseStructure, .zkIssuer, .zkStatement, .zkProof:
      zeroKnowledge(check)
    default:
      ("check", sentence(check))
    }
  }

  /// The zero-knowledge checks (ISO 18013-5 2nd edition ZkDocument, Longfellow).
  static func zeroKnowledge(_ check: VerificationCheck) -> (name: String, detail: String) {
    switch check {
    case .zkDeviceResponseStructure(let version, let count):
      return (
        "structure", "DeviceResponse \(version), status 0, \(count) zero-knowledge document(s)"
      )
    case .zkIssuer(let docType, let signer, let anchor):
      let trust =
        anchor.map { "chains to the issuer anchor \($0)" }
        ?? "is pinned as an issuer anchor (direct trust)"
      return (
        "issuer \(docType)",
        "document signer \(signer) \(trust) (msoX5chain, checked outside the proof)"
      )
    case .zkStatement(let docType, let id, let elements, let timestamp):
      return (
        "statement \(docType)",
        "public inputs: \(elements.joined(separator: ", ")) (requested), this session's transcript, "
          + "time \(timestamp), circuit \(id) (requested and configured)"
      )
    case .zkProof(let docType, let id):
      return (
        "proof \(docType)",
        "Longfellow proof under \(id) verified: an MSO signed by that issuer, valid at that time, "
          + "binds these values and a device key that signed this session; nothing else disclosed"
      )
    default:
      return ("check", "\(check)")
    }
  }

  /// A check in one sentence, as the OpenID4VP verifier commands print them.
  static func sentence(_ check: VerificationCheck) -> String {
    switch check {
    case .responseDecrypted: "response JWE decrypted with the request's encryption key"
    case .credentialSetsSatisfied: "required credential_sets satisfied"
    case .everyCredentialQueryAnswered: "every Credential Query answered"
    case .presentationsMeetQueries: "each presentation meets its Credential Query"
    case .sdJWTIssuerSignature: "issuer signature with a trusted x5c chain"
    case .sdJWTDisclosureDigests: "disclosures match the issuer's digests"
    case .keyBinding(let origin):
      "KB-JWT signed by cnf key, aud origin:\(origin), nonce, sd_hash, iat"
    case .transactionDataBound: "transaction_data_hashes bind the request's transaction data"
    case .mdocIssuerAuth(.pinnedDocumentSigner):
      "issuerAuth by a document signer pinned as an issuer anchor (direct trust)"
    case .mdocIssuerAuth(.chainToIACA): "issuerAuth by a document signer chaining to a trusted IACA"
    case .mdocValueDigests: "value digests, docType and validity"
    case .mdocHandoverDeviceSignature(let origin):
      "device signature over the OpenID4VPDCAPIHandover transcript for \(origin) and the nonce"
    case .keyBindingToClient(let clientID):
      "KB-JWT signed by cnf key, aud \(clientID), nonce, sd_hash, iat"
    case .mdocRedirectHandoverDeviceSignature(let clientID, let responseURI):
      "device signature over the OpenID4VPHandover transcript for \(clientID), the nonce and \(responseURI)"
    case .credentialStatus(let credential, let outcome):
      "status of \(credential): \(VerifierStatusText.detail(outcome))"
    case .issuerRevocation(let unknown) where unknown.isEmpty:
      "issuer chain checked against current CRLs: nothing revoked"
    case .issuerRevocation(let unknown):
      "issuer chain: nothing revoked, but the revocation status of "
        + "\(unknown.joined(separator: "; ")) is unknown (no current CRL; accepted, fail-open)"
    case .responseOpened, .deviceResponseStructure, .documentIssuer, .documentDeviceSignature,
      .documentDeviceMac, .deviceSignaturePayloadAttached, .onlyRequestedElements,
      .zkDeviceResponseStructure, .zkIssuer, .zkStatement, .zkProof:
      "\(nameAndDetail(check).name): \(nameAndDetail(check).detail)"
    }
  }

  static func trustText(_ trust: VerificationCheck.IssuerTrust) -> String {
    switch trust {
    case .chainToIACA: "chain to a trusted IACA"
    case .pinnedDocumentSigner: "document signer pinned as an issuer anchor (direct trust)"
    }
  }
}
