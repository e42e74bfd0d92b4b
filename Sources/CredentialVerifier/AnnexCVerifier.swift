public import CBOR
public import CryptoPrimitives
public import DigitalCredentialsAPI
public import Foundation
public import JOSE
public import Mdoc
public import X509Certificates

/// The relying party's side of `org-iso-mdoc` (ISO/IEC TS 18013-7:2025 Annex C): make a
/// request, then open and verify the response.
public enum AnnexCVerifier {
  /// What the verifier keeps between the request and the response. It holds the HPKE private
  /// key: store it like a secret, and use it once.
  public struct State: Sendable, Hashable {
    /// The verifier's own origin, which the wallet's platform will report.
    public let origin: WebOrigin
    /// The request data sent to the wallet.
    public let request: AnnexCRequest
    /// The HPKE recipient private key.
    public let recipientPrivateKey: ECPrivateKey

    /// Creates a state.
    public init(origin: WebOrigin, request: AnnexCRequest, recipientPrivateKey: ECPrivateKey) {
      self.origin = origin
      self.request = request
      self.recipientPrivateKey = recipientPrivateKey
    }

    public static func == (lhs: State, rhs: State) -> Bool {
      lhs.origin == rhs.origin && lhs.request == rhs.request
        && lhs.recipientPrivateKey.rawRepresentation == rhs.recipientPrivateKey.rawRepresentation
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(request) }

    /// The state as JSON (origin, request data, private key as base64url scalar).
    public var json: JSONValue {
      .object([
        ("protocol", .string(DigitalCredentialProtocol.orgIsoMdoc.rawValue)),
        ("origin", .string(origin.serialized)),
        ("request", request.data),
        ("recipientPrivateKey", .string(Base64URL.encode(recipientPrivateKey.rawRepresentation))),
      ])
    }

    /// Reads a state saved as JSON.
    public init(json: JSONValue) throws(DigitalCredentialsError) {
      guard let origin = json["origin"]?.string, let request = json["request"],
        let key = json["recipientPrivateKey"]?.string
      else {
        throw DigitalCredentialsError(
          .invalidRequest, "verifier state needs origin, request and recipientPrivateKey")
      }
      self.origin = try WebOrigin(origin)
      self.request = try AnnexCRequest(data: request)
      do {
        recipientPrivateKey = try ECPrivateKey(
          rawRepresentation: Base64URL.decode(key), curve: .p256)
      } catch {
        throw DigitalCredentialsError(.invalidRequest, "verifier state has an unusable private key")
      }
    }
  }

  /// A reader key and its certificate chain (leaf first) for reader authentication.
  public struct ReaderCredentials: Sendable {
    public let signer: any Signer
    public let chain: [Certificate]

    /// Creates reader credentials.
    public init(signer: any Signer, chain: [Certificate]) {
      self.signer = signer
      self.chain = chain
    }
  }

  /// Makes a request: a fresh nonce and HPKE key pair, and per doc request a readerAuth over
  /// this origin's transcript when reader credentials are given.
  public static func makeRequest(
    itemsRequests: [ItemsRequest], origin: WebOrigin, reader: ReaderCredentials? = nil,
    random: any RandomSource = SecureRandom()
  ) throws(DigitalCredentialsError) -> State {
    guard !itemsRequests.isEmpty else {
      throw DigitalCredentialsError(.invalidRequest, "request at least one document")
    }
    let key: ECPrivateKey
    do {
      key = try ECPrivateKey(curve: .p256)
    } catch {
      throw DigitalCredentialsError(.cryptoFailure, "HPKE key generation: \(error.reason)")
    }
    let encryptionInfo = EncryptionInfo(
      nonce: random.bytes(count: 16), recipientPublicKey: key.publicKey)
    let transcript = SessionTranscript(
      handover: Handover.dcapi(
        encryptionInfoBase64: encryptionInfo.base64URL, origin: origin.serialized))
    var docRequests: [DocRequest] = []
    for items in itemsRequests {
      let unsigned = DocRequest(itemsRequest: items)
      guard let reader else {
        docRequests.append(unsigned)
        continue
      }
      do {
        let readerAuth = try ReaderAuthentication.sign(
          payload: ReaderAuthentication.bytes(
            sessionTranscript: transcript, itemsRequestBytes: unsigned.itemsRequestBytes),
          signer: reader.signer, chain: reader.chain)
        docRequests.append(DocRequest(itemsRequest: items, readerAuth: readerAuth))
      } catch {
        throw DigitalCredentialsError(.cryptoFailure, error.reason)
      }
    }
    let request = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: docRequests), encryptionInfo: encryptionInfo)
    return State(origin: origin, request: request, recipientPrivateKey: key)
  }

  /// One check the verifier ran, for display.
  public struct Check: Sendable, Hashable {
    public let name: String
    public let passed: Bool
    public let detail: String
  }

  /// A verified document and what it disclosed.
  public struct VerifiedDocument: Sendable {
    public let docType: String
    /// Disclosed elements in response order.
    public let elements: [(nameSpace: String, identifier: String, value: CBOR)]
    /// The document signer and whether it chains to a trusted IACA.
    public let issuer: IssuerVerification
  }

  /// The outcome of verifying a response.
  public struct Result: Sendable {
    public let documents: [VerifiedDocument]
    public let checks: [Check]
  }

  /// Opens and verifies a response: decryption under the transcript of the expected origin,
  /// the DeviceResponse structure, each document's issuer signature, chain to a trusted IACA,
  /// digests and validity, its device signature over the same transcript, and that only
  /// requested elements came back.
  public static func verify(
    responseData: JSONValue, state: State, issuerTrustAnchors: [Certificate], now: Date
  ) throws(DigitalCredentialsError) -> Result {
    var checks: [Check] = []
    let transcript = state.request.sessionTranscript(origin: state.origin)
    let encrypted = try EncryptedResponse(data: responseData)
    let plaintext = try encrypted.open(
      privateKey: state.recipientPrivateKey, sessionTranscript: transcript)
    checks.append(
      Check(
        name: "decryption", passed: true,
        detail: "HPKE opened under the transcript of \(state.origin)"))
    let response: DeviceResponse
    do {
      response = try DeviceResponse(bytes: plaintext)
    } catch {
      throw DigitalCredentialsError(.verificationFailed, "DeviceResponse: \(error.reason)")
    }
    guard response.status == DeviceResponse.statusOK else {
      throw DigitalCredentialsError(.verificationFailed, "DeviceResponse status \(response.status)")
    }
    checks.append(
      Check(
        name: "structure", passed: true,
        detail: "DeviceResponse \(response.version), \(response.documents.count) document(s)"))
    var documents: [VerifiedDocument] = []
    var usedRequests = Set<Int>()
    for document in response.documents {
      // Each document answers a doc request of its docType that was not answered yet.
      guard
        let requestIndex = state.request.deviceRequest.docRequests.indices.first(where: {
          !usedRequests.contains($0)
            && state.request.deviceRequest.docRequests[$0].itemsRequest.docType == document.docType
        })
      else {
        throw DigitalCredentialsError(.verificationFailed, "\(document.docType) was not requested")
      }
      usedRequests.insert(requestIndex)
      let itemsRequest = state.request.deviceRequest.docRequests[requestIndex].itemsRequest
      let issuer: IssuerVerification
      do {
        issuer = try document.issuerSigned.verify(
          expectedDocType: document.docType, trustAnchors: issuerTrustAnchors, at: now)
        checks.append(
          Check(
            name: "issuer \(document.docType)", passed: true,
            detail:
              "MSO signed by \(issuer.documentSigner.subject), chain trusted, digests and validity verified"
          ))
        try document.verifyDeviceAuthentication(
          sessionTranscript: transcript, deviceKey: issuer.deviceKey)
        checks.append(
          Check(
            name: "device \(document.docType)", passed: true,
            detail: "device signature over this session verified"))
      } catch {
        throw DigitalCredentialsError(.verificationFailed, "\(document.docType): \(error.reason)")
      }
      var elements: [(nameSpace: String, identifier: String, value: CBOR)] = []
      for (ns, items) in document.issuerSigned.nameSpaces {
        for item in items {
          guard
            itemsRequest.requestedElements.contains(where: {
              $0.nameSpace == ns && $0.element.identifier == item.elementIdentifier
            })
          else {
            throw DigitalCredentialsError(
              .verificationFailed, "\(ns)/\(item.elementIdentifier) was returned but not requested")
          }
          elements.append((ns, item.elementIdentifier, item.elementValue))
        }
      }
      checks.append(
        Check(
          name: "disclosure \(document.docType)", passed: true,
          detail: "\(elements.count) element(s), all requested"))
      documents.append(
        VerifiedDocument(docType: document.docType, elements: elements, issuer: issuer))
    }
    return Result(documents: documents, checks: checks)
  }
}
