import DCAPI
import DCCrypto
@_exported public import DCErrors
public import DCMdoc
public import DCMdocProximity
public import DCProximityTransport
public import DCTrust
public import DCX509
public import Foundation

/// An error of the reader's in-person session driver (``InPersonReader``).
public typealias InPersonReaderError = DCError<InPersonReaderErrorCode>

/// What kind of failure this is.
public struct InPersonReaderErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// The engagement (`mdoc:` URI) cannot be read, or no session can start from it.
  package static let invalidEngagement = Self("invalidEngagement")
  /// The request cannot be built (no document, a reader key that cannot sign).
  package static let invalidRequest = Self("invalidRequest")
  /// The transport failed, or the holder closed the connection without ending the session.
  public static let transport = Self("transport")
  /// The session layer refused a message (its status sent first), or the holder ended the
  /// session with an error status or without answering.
  public static let session = Self("session")
  /// The response did not verify (its `underlying` is the `VerifierError` naming
  /// the check), or the holder refused with a DeviceResponse status.
  public static let verificationFailed = Self("verificationFailed")
}

/// Runs the reader's side of an ISO 18013-5 in-person session over any `SessionTransport` of
/// DCProximityTransport: from the `mdoc:` URI (QR engagement, §8.2.2.3) it makes the ephemeral
/// EReaderKey and the SessionTranscript, sends each DeviceRequest (with reader authentication
/// over this session's transcript when given), verifies each DeviceResponse with
/// ``ProximityReader/verify(response:request:sessionTranscript:eReaderKey:issuerTrustAnchors:now:)``,
/// and ends the session with status 20 (§9.1.1.4).
public actor InPersonReader {
  /// The engagement read from the URI.
  public nonisolated let deviceEngagement: DeviceEngagement
  /// This session's SessionTranscript (QR handover: null).
  public nonisolated let sessionTranscript: SessionTranscript

  private var session: ReaderSession
  private let eReaderKey: ECPrivateKey
  private let transport: any SessionTransport
  /// Whether the holder has ended the session (status 20, or an error status).
  public private(set) var endedByHolder = false

  /// A session with the mdoc whose `mdoc:` URI was read, over `transport` (already connected).
  ///
  /// - Throws: `invalidEngagement` for a URI that is not an ISO 18013-5 engagement.
  public init(uri: String, transport: any SessionTransport) throws(InPersonReaderError) {
    do throws(MdocProximityError) {
      let engagement = try DeviceEngagement(uri: uri)
      let key: ECPrivateKey
      do {
        key = try ECPrivateKey(curve: engagement.eDeviceKey.curve)
      } catch {
        throw MdocProximityError(.invalidKey, error.reason, underlying: error)
      }
      session = try ReaderSession(
        deviceEngagement: engagement, handover: Handover.qr, eReaderKey: key)
      eReaderKey = key
      deviceEngagement = engagement
      sessionTranscript = session.transcript
    } catch {
      throw InPersonReaderError(.invalidEngagement, error.reason, underlying: error)
    }
    self.transport = transport
  }

  /// Sends one DeviceRequest and verifies the answer.
  ///
  /// - Parameters:
  ///   - itemsRequests: the documents and elements asked for, one doc request each.
  ///   - useCases: `DeviceRequestInfo` use cases (second edition); given, the request is
  ///     version 1.1.
  ///   - reader: the reader key and its chain, to sign the request (reader authentication,
  ///     §9.1.4); nil for an unauthenticated request.
  ///   - readerAuthentication: one readerAuth per doc request, or one readerAuthAll.
  ///   - issuerTrustAnchors: the IACA certificates a document's signer must chain to.
  ///   - now: the time at which certificates and MSO validity are checked.
  ///   - status: when given, each verified document's status (its MSO `status`, IETF Token
  ///     Status List) is checked through it with `issuerTrustAnchors`, as
  ///     ``ProximityReader/verify(response:request:sessionTranscript:eReaderKey:issuerTrustAnchors:now:status:)``
  ///     does, and the report gains one `credentialStatus` check per document; nil: no status
  ///     check and no such check in the report.
  ///   - revocation: how the document signer and status-list chains are checked for revocation
  ///     (RFC 5280 §6.3); with a fetcher, the distribution points of the presented document
  ///     signer chains are fetched before they are validated. Nil: not checked.
  /// - Throws: `invalidRequest`, `transport`, `session` (the holder ended the session without a
  ///   response, or a message was refused), `verificationFailed` (the first failed check, or the
  ///   holder's refusal status; for a revoked or suspended document, or an unknown status under
  ///   a strict policy, its `underlying` error's cause is the `CredentialStatusError`).
  public func request(
    _ itemsRequests: [ItemsRequest], useCases: [UseCase] = [],
    reader: ProximityReader.ReaderCredentials? = nil,
    readerAuthentication: ProximityReader.ReaderAuthenticationMode = .perDocRequest,
    issuerTrustAnchors: [Certificate], now: Date, status: StatusChecking? = nil,
    revocation: RevocationSettings? = nil
  ) async throws(InPersonReaderError) -> ProximityReader.Result {
    let request: DeviceRequest
    do {
      request = try ProximityReader.makeRequest(
        itemsRequests: itemsRequests, useCases: useCases, sessionTranscript: sessionTranscript,
        reader: reader, readerAuthentication: readerAuthentication)
    } catch {
      throw InPersonReaderError(.invalidRequest, error.reason, underlying: error)
    }
    try await send(request)
    let response = try await receiveResponse()
    let presented =
      revocation.fetches
      ? ((try? DeviceResponse(bytes: response)).map(PresentedCertificates.inDeviceResponse)
        ?? []) : []
    let transcript = sessionTranscript
    let key = eReaderKey
    do {
      return try await revocation.inEffect(for: presented, issuers: issuerTrustAnchors) {
        () async throws(VerifierError) in
        guard let status else {
          return try ProximityReader.verify(
            response: response, request: request, sessionTranscript: transcript,
            eReaderKey: key, issuerTrustAnchors: issuerTrustAnchors, now: now)
        }
        return try await ProximityReader.verify(
          response: response, request: request, sessionTranscript: transcript,
          eReaderKey: key, issuerTrustAnchors: issuerTrustAnchors, now: now, status: status)
      }
    } catch {
      throw InPersonReaderError(.verificationFailed, error.reason, underlying: error)
    }
  }

  /// Encrypts the request in the session and sends it over the transport.
  private func send(_ request: DeviceRequest) async throws(InPersonReaderError) {
    let message: [UInt8]
    do {
      message = try session.send(request: request.bytes)
    } catch {
      throw InPersonReaderError(.session, error.reason, underlying: error)
    }
    do {
      try await transport.send(message)
    } catch {
      throw InPersonReaderError(
        .transport, "the request could not be sent: \(error.reason)", underlying: error)
    }
  }

  /// Receives and decrypts the holder's response, noting when the holder ended the session;
  /// a refused message is answered with its status before the error is thrown.
  private func receiveResponse() async throws(InPersonReaderError) -> [UInt8] {
    let reply: [UInt8]
    do {
      reply = try await transport.receive()
    } catch {
      endedByHolder = error.code == .peerClosed
      throw InPersonReaderError(
        .transport,
        error.code == .peerClosed
          ? "the holder closed the connection without answering"
          : "no response: \(error.reason)", underlying: error)
    }
    let response: [UInt8]
    do {
      switch try session.receive(reply) {
      case .message(let bytes):
        response = bytes
      case .finalMessage(let bytes):
        endedByHolder = true
        response = bytes
      case .terminated:
        endedByHolder = true
        throw InPersonReaderError(.session, "the holder ended the session without answering")
      }
    } catch let error as InPersonReaderError {
      throw error
    } catch let error as MdocProximityError {
      endedByHolder = true
      if let status = error.statusMessage { try? await transport.send(status) }
      throw InPersonReaderError(.session, error.reason, underlying: error)
    } catch {
      throw InPersonReaderError(.session, "\(error)")
    }
    return response
  }

  /// Ends the session: status 20 when it is still open (§9.1.1.4), then the transport closes.
  public func terminate() async {
    if !endedByHolder, let message = session.terminate() {
      try? await transport.send(message)
    }
    await transport.close()
  }
}
